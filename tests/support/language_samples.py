"""Short samples in ten languages, written for the language identifier's tests and bench:
everyday sentences of the length an item's text often has (a chat turn, a subject line, a
caption), none taken from any training set."""

from __future__ import annotations

__all__ = ["SAMPLES"]

SAMPLES: dict[str, list[str]] = {
    "en": [
        "The meeting is moved to Thursday afternoon.",
        "Please send me the invoice before the end of the month.",
        "We walked along the river until it got dark.",
        "Can you pick up some bread on your way home?",
        "The new printer on the third floor is broken again.",
        "Thanks for the flowers, they look lovely in the kitchen.",
    ],
    "fr": [
        "La réunion est reportée à jeudi après-midi.",
        "Merci de m'envoyer la facture avant la fin du mois.",
        "Nous avons marché le long de la rivière jusqu'à la nuit.",
        "Peux-tu acheter du pain en rentrant ce soir ?",
        "L'imprimante du troisième étage est encore en panne.",
        "Il fait très beau aujourd'hui, on mange dehors.",
    ],
    "de": [
        "Die Besprechung wird auf Donnerstagnachmittag verschoben.",
        "Bitte schick mir die Rechnung vor Ende des Monats.",
        "Wir sind am Fluss entlang gegangen, bis es dunkel wurde.",
        "Kannst du auf dem Heimweg noch Brot kaufen?",
        "Der neue Drucker im dritten Stock ist schon wieder kaputt.",
        "Vielen Dank für die Blumen, sie sehen in der Küche schön aus.",
    ],
    "es": [
        "La reunión se ha movido al jueves por la tarde.",
        "Por favor, envíame la factura antes de fin de mes.",
        "Caminamos junto al río hasta que se hizo de noche.",
        "¿Puedes comprar pan cuando vuelvas a casa?",
        "La impresora nueva del tercer piso está rota otra vez.",
        "Gracias por las flores, quedan preciosas en la cocina.",
    ],
    "he": [
        "הפגישה נדחתה ליום חמישי אחר הצהריים.",
        "בבקשה שלח לי את החשבונית לפני סוף החודש.",
        "הלכנו לאורך הנהר עד שהחשיך.",
        "אתה יכול לקנות לחם בדרך הביתה?",
        "המדפסת החדשה בקומה השלישית שוב מקולקלת.",
        "תודה על הפרחים, הם נראים יפה במטבח.",
    ],
    "ko": [
        "회의가 목요일 오후로 변경되었습니다.",
        "월말 전에 청구서를 보내 주세요.",
        "우리는 어두워질 때까지 강을 따라 걸었다.",
        "집에 오는 길에 빵 좀 사다 줄래?",
        "3층에 있는 새 프린터가 또 고장 났어요.",
        "꽃 고마워요, 부엌에 두니까 정말 예뻐요.",
    ],
    "ja": [
        "会議は木曜日の午後に変更されました。",
        "月末までに請求書を送ってください。",
        "暗くなるまで川沿いを歩きました。",
        "帰りにパンを買ってきてくれる？",
        "三階の新しいプリンターがまた壊れています。",
        "東京大学図書館",
    ],
    "zh": [
        "会议改到星期四下午了。",
        "请在月底之前把发票发给我。",
        "我们沿着河边一直走到天黑。",
        "你回家的路上能买点面包吗？",
        "三楼的新打印机又坏了。",
        "谢谢你的花，放在厨房里很好看。",
    ],
    "ru": [
        "Совещание перенесли на четверг после обеда.",
        "Пожалуйста, пришлите мне счёт до конца месяца.",
        "Мы гуляли вдоль реки, пока не стемнело.",
        "Можешь купить хлеба по дороге домой?",
        "Новый принтер на третьем этаже опять сломался.",
        "Спасибо за цветы, на кухне они смотрятся чудесно.",
    ],
    "ar": [
        "تم تأجيل الاجتماع إلى يوم الخميس بعد الظهر.",
        "من فضلك أرسل لي الفاتورة قبل نهاية الشهر.",
        "مشينا على طول النهر حتى حل الظلام.",
        "هل يمكنك شراء الخبز في طريقك إلى البيت؟",
        "الطابعة الجديدة في الطابق الثالث معطلة مرة أخرى.",
        "شكرا على الزهور، تبدو جميلة في المطبخ.",
    ],
}
