/* The layout stage's hot loops, compiled: over PDFium, a text page's runs into words, a
 * page's generated line breaks inside words (word_joins.py), its path objects into
 * ruling-line pieces and its text objects into hidden and shown
 * (formats/pdf/text_objects.py); over the words, the table finder's lines and the runs of
 * words within a line, and the page's lines (lines.py: rows, their cuts, the gutters' vote,
 * the label's gap; every word of a page passes there); over the rules, their merging
 * and the grid lines a ruled table is read from.
 *
 * Optional: setup.py builds it when a C compiler is there, and words.py and rules.py use
 * it when it imports. Each function is a line-by-line port of the Python loop it replaces
 * (named below), so the two give the same words and rules, and tests/formats/
 * test_layout_loops.py checks that they do. Why compiled: a C call through ctypes costs
 * half a microsecond, more than PDFium's own work for a character or a path segment, and
 * a page makes thousands. PDFium's functions come in as addresses (pypdfium2 already
 * loaded the library), so nothing here links against it.
 *
 * Floating point is done in double, as Python does, with the same operations in the same
 * order (setup.py turns off fused multiply-add contraction for that).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <structmember.h>
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

typedef struct { float left, top, right, bottom; } RectF;
typedef void *Handle;

/* Python's min(a, b) and max(a, b): the first argument unless the second is beyond it. */
static inline double py_min(double a, double b) { return b < a ? b : a; }
static inline double py_max(double a, double b) { return b > a ? b : a; }

static void *address(PyObject *value) {
    return value == Py_None ? NULL : PyLong_AsVoidPtr(value);
}

/* The ``n`` PDFium functions a loop calls, from a tuple of their addresses, into ``out``;
 * -1 (an error set naming ``who``) when the tuple is not ``n`` addresses or one is NULL. */
static int function_addresses(PyObject *functions, int n, void **out, const char *who) {
    if (!PyTuple_Check(functions) || PyTuple_GET_SIZE(functions) != n) {
        PyErr_Format(PyExc_ValueError, "%s needs %d PDFium function addresses", who, n);
        return -1;
    }
    for (int k = 0; k < n; k++) {
        out[k] = address(PyTuple_GET_ITEM(functions, k));
        if (out[k] == NULL) {
            if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "a PDFium function is NULL");
            return -1;
        }
    }
    return 0;
}

static PyObject *builtin_round; /* Python's round(), for sizes rounded as words.py does */

/* words._INFLATED: a loose box this many ems (of 1.15) tall is the font's wrong metrics. */
#define INFLATED 2.5
/* How many PDFium functions upright_words takes (words._WORD_CALLS). */
#define WORD_CALLS 7

/* ------------------------------------------------- slotted instances, made directly */

/* Where a slotted class keeps each of its fields, for instances made without calling it:
 * a word a page is ~0.4 us through the dataclass's __init__ (a Python frame), ~0.05 us
 * with its slots filled here. Only for a class whose __init__ does nothing but set them
 * (a slotted dataclass without __post_init__, made by object.__new__). */
#define MAX_SLOTS 8
typedef struct { PyTypeObject *type; Py_ssize_t at[MAX_SLOTS]; int n; } Slots;

/* 1 when ``cls`` can be made directly (``out`` filled), 0 when not (call it), -1 on error. */
static int slots_of(PyObject *cls, const char *const *names, int n, Slots *out) {
    out->type = NULL;
    if (n > MAX_SLOTS || !PyType_Check(cls)) return 0;
    PyTypeObject *type = (PyTypeObject *)cls;
    if (type->tp_new != PyBaseObject_Type.tp_new || type->tp_alloc == NULL) return 0;
    PyObject *post = PyObject_GetAttrString(cls, "__post_init__");
    if (post != NULL) { Py_DECREF(post); return 0; }
    if (!PyErr_ExceptionMatches(PyExc_AttributeError)) return -1;
    PyErr_Clear();
    for (int k = 0; k < n; k++) {
        PyObject *descr = PyObject_GetAttrString(cls, names[k]);
        if (descr == NULL) return -1;
        int usable = Py_IS_TYPE(descr, &PyMemberDescr_Type);
        if (usable) {
            PyMemberDef *member = ((PyMemberDescrObject *)descr)->d_member;
            usable = member->type == T_OBJECT_EX && !(member->flags & READONLY);
            out->at[k] = member->offset;
        }
        Py_DECREF(descr);
        if (!usable) return 0;
    }
    out->type = type;
    out->n = n;
    return 1;
}

/* A new instance of ``s->type`` holding ``values`` (borrowed) in its slots, in order. */
static PyObject *slots_new(const Slots *s, PyObject *const *values) {
    PyObject *obj = s->type->tp_alloc(s->type, 0);
    if (obj == NULL) return NULL;
    for (int k = 0; k < s->n; k++) {
        PyObject **slot = (PyObject **)((char *)obj + s->at[k]);
        Py_XSETREF(*slot, Py_NewRef(values[k]));
    }
    return obj;
}

/* A words.Word's fields, in the order its dataclass takes them. */
static const char *const WORD_FIELDS[] = {"text", "x0", "y0", "x1", "y1", "size", "bold", "font"};

/* ---------------------------------------------------------------- words (words.py) */

/* round(x, 2) of the sizes a page's words are given, by the bits of x: Python's round to
 * a number of digits goes through a correctly rounded decimal conversion (~3,000
 * instructions a call), and a filing page, one text object a word, asked it twice a word
 * for a handful of distinct sizes. The same x gives the same result object. */
#define ROUND_SLOTS 64
typedef struct { uint64_t bits[ROUND_SLOTS]; PyObject *value[ROUND_SLOTS]; } RoundCache;

static PyObject *round2(RoundCache *cache, double x) {
    uint64_t bits;
    memcpy(&bits, &x, sizeof bits);
    size_t slot = (size_t)((bits ^ (bits >> 32) ^ (bits >> 45)) % ROUND_SLOTS);
    if (cache->value[slot] != NULL && cache->bits[slot] == bits)
        return Py_NewRef(cache->value[slot]);
    PyObject *out = PyObject_CallFunction(builtin_round, "di", x, 2);
    if (out == NULL) return NULL;
    Py_XSETREF(cache->value[slot], Py_NewRef(out));
    cache->bits[slot] = bits;
    return out;
}

static void round_cache_clear(RoundCache *cache) {
    for (int k = 0; k < ROUND_SLOTS; k++) Py_CLEAR(cache->value[k]);
}

/* What the words loop of one page works with: PDFium's calls and words._FontStyle's
 * caches (by_object: text object -> (size, bold, font); by_font: font -> (bold, font)). */
typedef struct {
    Handle handle;
    int (*loose_box)(Handle, int, RectF *);
    Handle (*text_object)(Handle, int);
    double (*font_size)(Handle, int);
    Handle (*font_of)(Handle);
    int (*object_font_size)(Handle, float *);
    int (*char_box)(Handle, int, double *, double *, double *, double *);
    int (*object_matrix)(Handle, float *);
    double left, top;
    double gap_em, back_em; /* words._GAP_EM, words._BACK_EM: where _scan splits a run */
    PyObject *by_object, *by_font, *describe, *word_cls, *expand, *out;
    Slots word_slots; /* word_cls made directly when its type is set (slots_of) */
    RoundCache rounded; /* round(x, 2) of the sizes met on the page (round2) */
} Page;

static int is_break(Py_UCS4 ch) { return ch == 0 || ch == 0x200B || Py_UNICODE_ISSPACE(ch); }

/* The cached style of text object `obj` (borrowed), or NULL (no error set) when none. */
static PyObject *cached(Page *p, Handle obj) {
    if (obj == NULL) return NULL;
    PyObject *key = PyLong_FromVoidPtr(obj);
    if (key == NULL) return NULL;
    PyObject *props = PyDict_GetItemWithError(p->by_object, key);
    Py_DECREF(key);
    return props;
}

/* _FontStyle.known: (Tf size, bold, font) of char `index` of `obj`, read and cached; a new
 * reference. */
static PyObject *style_known(Page *p, int index, Handle obj) {
    double size = p->font_size(p->handle, index);
    Handle font = obj ? p->font_of(obj) : NULL;
    PyObject *font_key = font ? PyLong_FromVoidPtr(font) : Py_NewRef(Py_None);
    if (font_key == NULL) return NULL;
    PyObject *face = NULL;
    if (font) {
        face = PyDict_GetItemWithError(p->by_font, font_key);
        if (face == NULL && PyErr_Occurred()) goto fail;
        Py_XINCREF(face);
    }
    if (face == NULL) {
        face = PyObject_CallFunction(p->describe, "Oi", font_key, index);
        if (face == NULL) goto fail;
        if (font && PyDict_SetItem(p->by_font, font_key, face) < 0) goto fail;
    }
    if (!PyTuple_Check(face) || PyTuple_GET_SIZE(face) != 2) {
        PyErr_SetString(PyExc_TypeError, "a font face is a (bold, font) tuple");
        goto fail;
    }
    PyObject *rounded = round2(&p->rounded, size);
    if (rounded == NULL) goto fail;
    PyObject *props = PyTuple_Pack(3, rounded, PyTuple_GET_ITEM(face, 0), PyTuple_GET_ITEM(face, 1));
    Py_DECREF(rounded);
    if (props == NULL) goto fail;
    if (obj) {
        PyObject *key = PyLong_FromVoidPtr(obj);
        if (key == NULL || PyDict_SetItem(p->by_object, key, props) < 0) {
            Py_XDECREF(key);
            Py_DECREF(props);
            goto fail;
        }
        Py_DECREF(key);
    }
    Py_DECREF(face);
    Py_DECREF(font_key);
    return props;
fail:
    Py_XDECREF(face);
    Py_DECREF(font_key);
    return NULL;
}

/* _FontStyle.inflated_em: the text object's size (Tf times its matrix's scale) when the
 * char's loose box is far taller than that size's em and its ink fits in one (the font's
 * ascent and descent are wrong); else 0. */
static double inflated_em(Page *p, int index, Handle obj, double height) {
    if (obj == NULL) return 0.0;
    float fs = 0.0f;
    float m[6] = {0};
    if (!p->object_font_size(obj, &fs) || !p->object_matrix(obj, m)) return 0.0;
    double ma = m[0], mb = m[1], mc = m[2], md = m[3];
    double em = (double)fs * sqrt(fabs(ma * md - mb * mc));
    if (!(em > 1.0 && height > INFLATED * 1.15 * em)) return 0.0;
    double l = 0, r = 0, b = 0, t = 0;
    if (!p->char_box(p->handle, index, &l, &r, &b, &t)) return 0.0;
    double ink = t - b;
    if (!(0 < ink && ink <= 1.2 * em)) return 0.0;
    return em;
}

/* _FontStyle.of for char `index` of text object `obj`, whose loose box is `height` tall:
 * (size, bold, font), a new reference. */
static PyObject *style_of(Page *p, int index, Handle obj, double height) {
    PyObject *props = cached(p, obj);
    if (props == NULL && PyErr_Occurred()) return NULL;
    if (props != NULL) {
        Py_INCREF(props);
    } else {
        props = style_known(p, index, obj);
        if (props == NULL) return NULL;
    }
    double size = PyFloat_AsDouble(PyTuple_GET_ITEM(props, 0));
    if (size == -1.0 && PyErr_Occurred()) { Py_DECREF(props); return NULL; }
    if (height > 0) {
        double ratio = size / height;
        if (!(0.5 < ratio && ratio < 1.5)) {
            double em = inflated_em(p, index, obj, height);
            PyObject *scaled = round2(&p->rounded, em > 0 ? em : height / 1.15);
            if (scaled == NULL) { Py_DECREF(props); return NULL; }
            PyObject *out = PyTuple_Pack(3, scaled, PyTuple_GET_ITEM(props, 1),
                                         PyTuple_GET_ITEM(props, 2));
            Py_DECREF(scaled);
            Py_DECREF(props);
            return out;
        }
    }
    return props;
}

/* words._word: chars lo..hi of ``text`` as a word with ``props`` (size, bold, font),
 * appended to the page's list. */
static int emit_word(Page *p, PyObject *text, Py_ssize_t lo, Py_ssize_t hi, double x0,
                     double y0, double x1, double y1, PyObject *props) {
    /* words._fit_boxes, as the word is made: a box far taller than its size (the font's
     * wrong ascent and descent) cut to an em's box around its middle. */
    double size = PyFloat_AsDouble(PyTuple_GET_ITEM(props, 0));
    if (size == -1.0 && PyErr_Occurred()) return -1;
    double tallest = INFLATED * 1.15 * size;
    if (y1 - y0 > tallest && tallest > 0) {
        double mid = (y0 + y1) * 0.5, half = 0.575 * size;
        y0 = mid - half;
        y1 = mid + half;
    }
    PyObject *chars = PyUnicode_Substring(text, lo, hi);
    if (chars == NULL) return -1;
    if (!PyUnicode_IS_ASCII(chars)) {
        PyObject *expanded = PyObject_CallOneArg(p->expand, chars);
        Py_DECREF(chars);
        if (expanded == NULL) return -1;
        chars = expanded;
    }
    PyObject *word;
    if (p->word_slots.type != NULL) {
        PyObject *box[4] = {PyFloat_FromDouble(x0), PyFloat_FromDouble(y0),
                            PyFloat_FromDouble(x1), PyFloat_FromDouble(y1)};
        word = NULL;
        if (box[0] && box[1] && box[2] && box[3]) {
            PyObject *values[8] = {chars, box[0], box[1], box[2], box[3],
                                   PyTuple_GET_ITEM(props, 0), PyTuple_GET_ITEM(props, 1),
                                   PyTuple_GET_ITEM(props, 2)};
            word = slots_new(&p->word_slots, values);
        }
        for (int k = 0; k < 4; k++) Py_XDECREF(box[k]);
    } else {
        word = PyObject_CallFunction(
            p->word_cls, "OddddOOO", chars, x0, y0, x1, y1, PyTuple_GET_ITEM(props, 0),
            PyTuple_GET_ITEM(props, 1), PyTuple_GET_ITEM(props, 2));
    }
    Py_DECREF(chars);
    if (word == NULL) return -1;
    int failed = PyList_Append(p->out, word);
    Py_DECREF(word);
    return failed ? -1 : 0;
}

/* One run's word (the fast path of page_words), appended to the page's list. 1 when
 * appended, 0 when the run must be read box by box, -1 on error. */
static int run_word(Page *p, PyObject *text, Py_ssize_t lo, Py_ssize_t hi) {
    int kind = PyUnicode_KIND(text);
    const void *data = PyUnicode_DATA(text);
    Handle obj = p->text_object(p->handle, (int)lo);
    int digit = 0;
    for (Py_ssize_t i = lo; i < hi; i++) {
        if (Py_UNICODE_ISDECIMAL(PyUnicode_READ(kind, data, i))) { digit = 1; break; }
    }
    /* Two cells fused without a space come from two text objects: read box by box. */
    if (digit && !(obj != NULL && p->text_object(p->handle, (int)(hi - 1)) == obj)) return 0;
    RectF rect;
    double left = p->left, top = p->top;
    int found = p->loose_box(p->handle, (int)lo, &rect);
    double x0 = (double)rect.left - left, y0 = top - (double)rect.top;
    double x1 = (double)rect.right - left, y1 = top - (double)rect.bottom;
    double a0, b0, a1, b1;
    if (hi - lo == 1) {
        a0 = x0; b0 = y0; a1 = x1; b1 = y1;
    } else if (found) {
        found = p->loose_box(p->handle, (int)(hi - 1), &rect);
        a0 = (double)rect.left - left; b0 = top - (double)rect.top;
        a1 = (double)rect.right - left; b1 = top - (double)rect.bottom;
    } else {
        return 0;
    }
    if (!found) return 0;
    double height = y1 - y0;
    double mid = (b0 + b1) * 0.5;
    if (!(height > 0 && y0 <= mid && mid <= y1)) return 0;
    PyObject *props = cached(p, obj);
    if (props == NULL && PyErr_Occurred()) return -1;
    if (props != NULL) {
        double size = PyFloat_AsDouble(PyTuple_GET_ITEM(props, 0));
        if (size == -1.0 && PyErr_Occurred()) return -1;
        if (0.5 * height < size && size < 1.5 * height)
            Py_INCREF(props);
        else
            props = NULL;
    }
    if (props == NULL) {
        props = style_of(p, (int)lo, obj, height);
        if (props == NULL) return -1;
    }
    double size = PyFloat_AsDouble(PyTuple_GET_ITEM(props, 0));
    if (size == -1.0 && PyErr_Occurred()) { Py_DECREF(props); return -1; }
    double wx0 = py_min(a0, x0), wx1 = py_max(a1, x1);
    if (!(wx0 < wx1 && wx1 <= wx0 + ((double)(hi - lo) + 0.5) * py_max(size, 1.0))) {
        Py_DECREF(props);
        return 0;
    }
    int failed = emit_word(p, text, lo, hi, wx0, py_min(y0, b0), wx1, py_max(y1, b1), props);
    Py_DECREF(props);
    return failed ? -1 : 1;
}

/* words._scan: chars lo..hi (no space among them) read box by box as words, split where a
 * gap or a new line falls between two of them (a run fused from two text objects). */
static int scan_run(Page *p, PyObject *text, Py_ssize_t lo, Py_ssize_t hi) {
    int kind = PyUnicode_KIND(text);
    const void *data = PyUnicode_DATA(text);
    double x0 = 0, y0 = 0, x1 = 0, y1 = 0, gap = 0, back = 0;
    Py_ssize_t start = -1;
    PyObject *props = NULL;
    for (Py_ssize_t index = lo; index < hi; index++) {
        RectF rect;
        if (!p->loose_box(p->handle, (int)index, &rect)) continue;
        double cx0 = (double)rect.left - p->left, cy0 = p->top - (double)rect.top;
        double cx1 = (double)rect.right - p->left, cy1 = p->top - (double)rect.bottom;
        if (cx1 <= cx0 && cy1 <= cy0) continue; /* a zero-size glyph (a marker, not ink) */
        if (start >= 0) {
            double mid = (cy0 + cy1) * 0.5;
            Py_UCS4 code = PyUnicode_READ(kind, data, index);
            int rtl = (0x0590 <= code && code <= 0x08FF) || (0xFB1D <= code && code <= 0xFEFC);
            if (rtl && x0 - cx1 <= gap && cx1 <= x1 + back && y0 <= mid && mid <= y1) {
                /* Right-to-left script: the next char in reading order stands to the left. */
                x0 = py_min(x0, cx0);
                y0 = py_min(y0, cy0);
                y1 = py_max(y1, cy1);
                continue;
            }
            if (cx0 - x1 > gap || cx0 < x0 - back || mid > y1 || mid < y0) {
                if (emit_word(p, text, start, index, x0, y0, x1, y1, props) < 0) goto fail;
                start = -1;
            } else {
                x1 = py_max(x1, cx1);
                y0 = py_min(y0, cy0);
                y1 = py_max(y1, cy1);
                continue;
            }
        }
        start = index;
        x0 = cx0, y0 = cy0, x1 = cx1, y1 = cy1;
        Py_XDECREF(props);
        props = style_of(p, (int)index, p->text_object(p->handle, (int)index), cy1 - cy0);
        if (props == NULL) goto fail;
        double size = PyFloat_AsDouble(PyTuple_GET_ITEM(props, 0));
        if (size == -1.0 && PyErr_Occurred()) goto fail;
        double em = py_max(size, 1.0);
        gap = p->gap_em * em;
        back = p->back_em * em;
    }
    if (start >= 0 && emit_word(p, text, start, hi, x0, y0, x1, y1, props) < 0) goto fail;
    Py_XDECREF(props);
    return 0;
fail:
    Py_XDECREF(props);
    return -1;
}

PyDoc_STRVAR(upright_words_doc,
"upright_words(text, handle, functions, left, top, style, word, expand, (gap_em, back_em), out)\n\n"
"The loop of words.page_words on an upright page: each run of ``text`` between spaces\n"
"becomes a ``word`` appended to ``out``, or is read box by box (words._scan, with its gap\n"
"and back-step in ems).\n"
"``functions`` are the addresses of FPDFText_GetLooseCharBox, FPDFText_GetTextObject,\n"
"FPDFText_GetFontSize, FPDFTextObj_GetFont, FPDFTextObj_GetFontSize, FPDFText_GetCharBox and\n"
"FPDFPageObj_GetMatrix; ``style`` is the page's words._FontStyle\n"
"(its by_object and by_font caches are read and filled, its describe called on a new font).");

static PyObject *upright_words(PyObject *Py_UNUSED(self), PyObject *args) {
    PyObject *text, *handle_obj, *style;
    PyObject *fn[WORD_CALLS];
    Page p = {0};
    if (!PyArg_ParseTuple(args, "UO(OOOOOOO)ddOOO(dd)O!", &text, &handle_obj, &fn[0], &fn[1],
                          &fn[2], &fn[3], &fn[4], &fn[5], &fn[6], &p.left, &p.top, &style,
                          &p.word_cls, &p.expand, &p.gap_em, &p.back_em, &PyList_Type, &p.out))
        return NULL;
    p.handle = address(handle_obj);
    p.loose_box = (int (*)(Handle, int, RectF *))address(fn[0]);
    p.text_object = (Handle (*)(Handle, int))address(fn[1]);
    p.font_size = (double (*)(Handle, int))address(fn[2]);
    p.font_of = (Handle (*)(Handle))address(fn[3]);
    p.object_font_size = (int (*)(Handle, float *))address(fn[4]);
    p.char_box = (int (*)(Handle, int, double *, double *, double *, double *))address(fn[5]);
    p.object_matrix = (int (*)(Handle, float *))address(fn[6]);
    if (PyErr_Occurred()) return NULL;
    if (!p.loose_box || !p.text_object || !p.font_size || !p.font_of || !p.object_font_size ||
        !p.char_box || !p.object_matrix) {
        PyErr_SetString(PyExc_ValueError, "upright_words needs 7 PDFium function addresses");
        return NULL;
    }
    if (slots_of(p.word_cls, WORD_FIELDS, 8, &p.word_slots) < 0) return NULL;
    p.by_object = PyObject_GetAttrString(style, "by_object");
    p.by_font = PyObject_GetAttrString(style, "by_font");
    p.describe = PyObject_GetAttrString(style, "describe");
    PyObject *result = NULL;
    if (!p.by_object || !p.by_font || !p.describe) goto done;
    if (!PyDict_Check(p.by_object) || !PyDict_Check(p.by_font)) {
        PyErr_SetString(PyExc_TypeError, "a font style's caches are dicts");
        goto done;
    }
    int kind = PyUnicode_KIND(text);
    const void *data = PyUnicode_DATA(text);
    Py_ssize_t n = PyUnicode_GET_LENGTH(text), i = 0;
    while (i < n) {
        while (i < n && is_break(PyUnicode_READ(kind, data, i))) i++;
        if (i >= n) break;
        Py_ssize_t lo = i;
        while (i < n && !is_break(PyUnicode_READ(kind, data, i))) i++;
        int appended = run_word(&p, text, lo, i);
        if (appended < 0) goto done;
        if (appended == 0 && scan_run(&p, text, lo, i) < 0) goto done;
    }
    result = Py_NewRef(Py_None);
done:
    round_cache_clear(&p.rounded);
    Py_XDECREF(p.by_object);
    Py_XDECREF(p.by_font);
    Py_XDECREF(p.describe);
    return result;
}

/* ------------------------------------------------- word joins (word_joins.py) */

/* word_joins._LINE_BREAK's neighbours: any character but whitespace (re's \s), NUL and
 * the zero-width space. */
static inline int join_neighbour(Py_UCS4 ch) {
    return ch != 0 && ch != 0x200B && !Py_UNICODE_ISSPACE(ch);
}

PyDoc_STRVAR(join_spans_doc,
"join_spans(text, handle, functions, (touch_em, height_ratio, baseline_share)) -> list\n\n"
"The loop of word_joins.join_split_words: the (lo, hi) spans of ``text`` that are line\n"
"breaks PDFium generated inside a word, in order. ``functions`` are the addresses of\n"
"FPDFText_IsGenerated and FPDFText_GetLooseCharBox.");

static PyObject *join_spans(PyObject *Py_UNUSED(self), PyObject *args) {
    PyObject *text, *handle_obj, *functions;
    double touch_em, height_ratio, baseline_share;
    void *fn[2];
    if (!PyArg_ParseTuple(args, "UOO(ddd)", &text, &handle_obj, &functions, &touch_em,
                          &height_ratio, &baseline_share))
        return NULL;
    if (function_addresses(functions, 2, fn, "join_spans") < 0) return NULL;
    Handle handle = address(handle_obj);
    if (PyErr_Occurred()) return NULL;
    int (*generated)(Handle, int) = (int (*)(Handle, int))fn[0];
    int (*loose_box)(Handle, int, RectF *) = (int (*)(Handle, int, RectF *))fn[1];
    int kind = PyUnicode_KIND(text);
    const void *data = PyUnicode_DATA(text);
    Py_ssize_t n = PyUnicode_GET_LENGTH(text);
    PyObject *out = PyList_New(0);
    if (out == NULL) return NULL;
    RectF a, b;
    /* A break at lo: "\r\n", "\r" or "\n" with a neighbour on each side (re's finditer:
     * "\r\n" is tried first, and a lone "\r" before "\n" has whitespace after it). */
    for (Py_ssize_t lo = 1; lo < n; lo++) {
        Py_UCS4 ch = PyUnicode_READ(kind, data, lo);
        if (ch != '\r' && ch != '\n') continue;
        if (!join_neighbour(PyUnicode_READ(kind, data, lo - 1))) continue;
        Py_ssize_t hi = lo + 1;
        if (ch == '\r' && hi < n && PyUnicode_READ(kind, data, hi) == '\n') hi++;
        if (hi >= n || !join_neighbour(PyUnicode_READ(kind, data, hi))) continue;
        if (generated(handle, (int)lo) != 1 || !loose_box(handle, (int)(lo - 1), &a)) continue;
        double a_left = a.left, a_right = a.right, a_bottom = a.bottom, a_top = a.top;
        if (!loose_box(handle, (int)hi, &b)) continue;
        double a_height = a_top - a_bottom, b_height = (double)b.top - (double)b.bottom;
        if (!(a_height > 0 && b_height > 0)) continue;
        double ratio = a_height / b_height;
        if (!(1 / height_ratio <= ratio && ratio <= height_ratio)) continue;
        if (fabs((double)b.bottom - a_bottom) > baseline_share * a_height) continue;
        double touch = touch_em * a_height / 1.15; /* a loose box is ~1.15 em tall */
        double left = b.left;
        if (left > a_left && fabs(left - a_right) <= touch) {
            PyObject *span = Py_BuildValue("(nn)", lo, hi);
            if (span == NULL || PyList_Append(out, span) < 0) {
                Py_XDECREF(span);
                Py_DECREF(out);
                return NULL;
            }
            Py_DECREF(span);
        }
    }
    return out;
}

/* ---------------------------------------------------------------- rules (rules.py) */

typedef struct {
    int (*count_objects)(Handle);
    Handle (*get_object)(Handle, int);
    int (*form_count)(Handle);
    Handle (*form_object)(Handle, unsigned long);
    int (*object_type)(Handle);
    int (*matrix)(Handle, float *);
    int (*bounds)(Handle, float *, float *, float *, float *);
    int (*fill_color)(Handle, unsigned *, unsigned *, unsigned *, unsigned *);
    int (*stroke_color)(Handle, unsigned *, unsigned *, unsigned *, unsigned *);
    int (*draw_mode)(Handle, int *, int *);
    int (*count_segments)(Handle);
    Handle (*segment)(Handle, int);
    int (*segment_point)(Handle, float *, float *);
    int (*segment_type)(Handle);
    int (*segment_close)(Handle);
    int path_kind, form_kind, moveto, bezierto;
    /* Out-buffers shared between calls, as Calls' are: a failed call leaves them as the
     * last call wrote them, in both implementations alike. */
    float floats[6];
    unsigned uints[4];
    int ints[2];
    long segments_left, objects_left, max_rules;
    PyObject *out;
    double *xs, *ys; /* a subpath's points, grown as needed */
    int room;
} Walk;

typedef struct { double a, b, c, d, e, f; } Matrix;
static const Matrix IDENTITY = {1.0, 0.0, 0.0, 1.0, 0.0, 0.0};

#define THIN 3.0
#define SKEW 0.5
enum { WALK_OK = 0, WALK_TOO_MANY = 1, WALK_ERROR = -1 };

static Matrix mul(Matrix m, Matrix n) {
    Matrix r = {
        m.a * n.a + m.b * n.c,
        m.a * n.b + m.b * n.d,
        m.c * n.a + m.d * n.c,
        m.c * n.b + m.d * n.d,
        m.e * n.a + m.f * n.c + n.e,
        m.e * n.b + m.f * n.d + n.f,
    };
    return r;
}

static Matrix object_matrix(Walk *w, Handle obj) {
    if (!w->matrix(obj, w->floats)) return IDENTITY;
    Matrix m = {w->floats[0], w->floats[1], w->floats[2],
                w->floats[3], w->floats[4], w->floats[5]};
    return m;
}

static int emit(Walk *w, double x0, double y0, double x1, double y1) {
    PyObject *rule = Py_BuildValue("(dddd)", x0, y0, x1, y1);
    if (rule == NULL) return -1;
    int failed = PyList_Append(w->out, rule);
    Py_DECREF(rule);
    return failed ? -1 : 0;
}

/* rules._thin_bounds: 1 when the bounding box settled the path, 0 when not, -1 on error. */
static int thin_bounds(Walk *w, Handle obj, const Matrix *outer, int identity) {
    float *f = w->floats;
    if (!w->bounds(obj, &f[0], &f[1], &f[2], &f[3])) return 0;
    double left = f[0], bottom = f[1], right = f[2], top = f[3];
    if (!identity) {
        if (fabs(outer->b) > 1e-6 || fabs(outer->c) > 1e-6) return 0;
        double l = left * outer->a + outer->e, r = right * outer->a + outer->e;
        double b = bottom * outer->d + outer->f, t = top * outer->d + outer->f;
        left = r < l ? r : l; right = r < l ? l : r;
        bottom = t < b ? t : b; top = t < b ? b : t;
    }
    double width = right - left, height = top - bottom;
    if (height <= THIN && width > THIN)
        return emit(w, left, (top + bottom) / 2, right, (top + bottom) / 2) ? -1 : 1;
    if (width <= THIN && height > THIN)
        return emit(w, (left + right) / 2, bottom, (left + right) / 2, top) ? -1 : 1;
    if (width <= THIN && height <= THIN) return 1;
    return 0;
}

static int invisible(Walk *w, Handle obj, int stroked) {
    unsigned *u = w->uints;
    int got = (stroked ? w->stroke_color : w->fill_color)(obj, &u[0], &u[1], &u[2], &u[3]);
    if (!got) return 0;
    unsigned low = u[0] < u[1] ? u[0] : u[1];
    low = u[2] < low ? u[2] : low;
    return u[3] == 0 || low >= 250;
}

/* round(v * 10) / 10, as rules._tenth does it (ties to even). */
static double tenth(double v) { return nearbyint(v * 10) / 10; }

/* rules._box then rules._box_rules for one filled subpath: 1 when it outlined a box. */
static int box_rules(Walk *w, const double *xs, const double *ys, int n) {
    double ux[2], uy[2];
    int nx = 0, ny = 0;
    if (n > 5) return 0;
    for (int k = 0; k < n; k++) {
        double x = tenth(xs[k]), y = tenth(ys[k]);
        int seen = 0;
        for (int j = 0; j < nx; j++) seen |= ux[j] == x;
        if (!seen) { if (nx == 2) return 0; ux[nx++] = x; }
        seen = 0;
        for (int j = 0; j < ny; j++) seen |= uy[j] == y;
        if (!seen) { if (ny == 2) return 0; uy[ny++] = y; }
    }
    double x0 = ux[0], x1 = ux[nx - 1], y0 = uy[0], y1 = uy[ny - 1];
    if (x1 < x0) { double t = x0; x0 = x1; x1 = t; }
    if (y1 < y0) { double t = y0; y0 = y1; y1 = t; }
    double width = x1 - x0, height = y1 - y0;
    if (height <= THIN && width > height) return emit(w, x0, (y0 + y1) / 2, x1, (y0 + y1) / 2) ? -1 : 1;
    if (width <= THIN && height > width) return emit(w, (x0 + x1) / 2, y0, (x0 + x1) / 2, y1) ? -1 : 1;
    if (width > THIN && height > THIN) {
        if (emit(w, x0, y0, x1, y0) || emit(w, x0, y1, x1, y1) || emit(w, x0, y0, x0, y1) ||
            emit(w, x1, y0, x1, y1))
            return -1;
    }
    return 1;
}

/* rules._segment */
static int segment_rule(Walk *w, double x0, double y0, double x1, double y1) {
    if (fabs(y1 - y0) <= SKEW && fabs(x1 - x0) > SKEW) {
        double y = (y0 + y1) / 2;
        return emit(w, x0 < x1 ? x0 : x1, y, x1 > x0 ? x1 : x0, y);
    }
    if (fabs(x1 - x0) <= SKEW && fabs(y1 - y0) > SKEW) {
        double x = (x0 + x1) / 2;
        return emit(w, x, y0 < y1 ? y0 : y1, x, y1 > y0 ? y1 : y0);
    }
    return 0;
}

/* One subpath of rules._path_rules (points xs/ys, n of them). */
static int subpath_rules(Walk *w, const double *xs, const double *ys, int n, int closed,
                         int curved, int fill, int stroke) {
    if (curved || n < 2) return 0;
    if (fill && (closed || n >= 4)) {
        int done = box_rules(w, xs, ys, n);
        if (done) return done < 0 ? -1 : 0;
    }
    if (stroke) {
        for (int k = 0; k + 1 < n; k++)
            if (segment_rule(w, xs[k], ys[k], xs[k + 1], ys[k + 1])) return -1;
        if (closed && segment_rule(w, xs[n - 1], ys[n - 1], xs[0], ys[0])) return -1;
    }
    return 0;
}

/* rules._path_rules */
static int path_rules(Walk *w, Handle obj, const Matrix *outer, int identity) {
    w->draw_mode(obj, &w->ints[0], &w->ints[1]);
    int fill = w->ints[0], stroke = w->ints[1];
    if (!fill && !stroke) return WALK_OK;
    if (invisible(w, obj, stroke != 0)) return WALK_OK;
    int n = w->count_segments(obj);
    w->segments_left -= n;
    if (w->segments_left < 0) return WALK_TOO_MANY;
    if (n <= 5) {
        int done = thin_bounds(w, obj, outer, identity);
        if (done < 0) return WALK_ERROR;
        if (done) return WALK_OK;
    }
    Matrix m = mul(object_matrix(w, obj), *outer);
    if (n > w->room) {
        double *xs = PyMem_Realloc(w->xs, sizeof(double) * n);
        if (xs == NULL) { PyErr_NoMemory(); return WALK_ERROR; }
        w->xs = xs;
        double *ys = PyMem_Realloc(w->ys, sizeof(double) * n);
        if (ys == NULL) { PyErr_NoMemory(); return WALK_ERROR; }
        w->ys = ys;
        w->room = n;
    }
    double *xs = w->xs, *ys = w->ys;
    int count = 0, curved = 0;
    Handle prev = NULL;
    for (int i = 0; i < n; i++) {
        Handle seg = w->segment(obj, i);
        int kind = w->segment_type(seg);
        if (kind == w->moveto && count) {
            if (subpath_rules(w, xs, ys, count, w->segment_close(prev) != 0, curved, fill, stroke))
                return WALK_ERROR;
            count = 0; curved = 0;
        }
        prev = seg;
        if (kind == w->bezierto) curved = 1;
        if (curved) continue;
        w->segment_point(seg, &w->floats[0], &w->floats[1]);
        double x = w->floats[0], y = w->floats[1];
        xs[count] = x * m.a + y * m.c + m.e;
        ys[count] = x * m.b + y * m.d + m.f;
        count++;
    }
    int closed = prev != NULL && w->segment_close(prev) != 0;
    if (count && subpath_rules(w, xs, ys, count, closed, curved, fill, stroke))
        return WALK_ERROR;
    if (PyList_GET_SIZE(w->out) > w->max_rules) return WALK_TOO_MANY;
    return WALK_OK;
}

/* rules._walk_objects */
static int walk_objects(Walk *w, Handle holder, int is_form, Matrix outer, int identity) {
    int n = is_form ? w->form_count(holder) : w->count_objects(holder);
    w->objects_left -= n;
    if (w->objects_left < 0) return WALK_TOO_MANY;
    for (int i = 0; i < n; i++) {
        Handle obj = is_form ? w->form_object(holder, (unsigned long)i) : w->get_object(holder, i);
        int kind = w->object_type(obj);
        int status = WALK_OK;
        if (kind == w->path_kind)
            status = path_rules(w, obj, &outer, identity);
        else if (kind == w->form_kind)
            status = walk_objects(w, obj, 1, mul(object_matrix(w, obj), outer), 0);
        if (status != WALK_OK) return status;
    }
    return WALK_OK;
}

PyDoc_STRVAR(path_pieces_doc,
"path_pieces(page, functions, kinds, limits)\n\n"
"The loop of rules._walk_objects: the axis-aligned pieces (x0, y0, x1, y1) of a page's\n"
"path objects in PDF space, or None past the limits (max segments, max objects, max\n"
"rules). ``functions`` are the addresses of the fifteen PDFium calls, in Walk's order;\n"
"``kinds`` are (path, form, moveto, bezierto).");

static PyObject *path_pieces(PyObject *Py_UNUSED(self), PyObject *args) {
    PyObject *page_obj, *functions;
    int path_kind, form_kind, moveto, bezierto;
    long max_segments, max_objects, max_rules;
    if (!PyArg_ParseTuple(args, "OO!(iiii)(lll)", &page_obj, &PyTuple_Type, &functions,
                          &path_kind, &form_kind, &moveto, &bezierto, &max_segments,
                          &max_objects, &max_rules))
        return NULL;
    void *fn[15];
    if (function_addresses(functions, 15, fn, "path_pieces") < 0) return NULL;
    Handle page = address(page_obj);
    if (PyErr_Occurred()) return NULL;
    Walk w = {0};
    w.count_objects = (int (*)(Handle))fn[0];
    w.get_object = (Handle (*)(Handle, int))fn[1];
    w.form_count = (int (*)(Handle))fn[2];
    w.form_object = (Handle (*)(Handle, unsigned long))fn[3];
    w.object_type = (int (*)(Handle))fn[4];
    w.matrix = (int (*)(Handle, float *))fn[5];
    w.bounds = (int (*)(Handle, float *, float *, float *, float *))fn[6];
    w.fill_color = (int (*)(Handle, unsigned *, unsigned *, unsigned *, unsigned *))fn[7];
    w.stroke_color = (int (*)(Handle, unsigned *, unsigned *, unsigned *, unsigned *))fn[8];
    w.draw_mode = (int (*)(Handle, int *, int *))fn[9];
    w.count_segments = (int (*)(Handle))fn[10];
    w.segment = (Handle (*)(Handle, int))fn[11];
    w.segment_point = (int (*)(Handle, float *, float *))fn[12];
    w.segment_type = (int (*)(Handle))fn[13];
    w.segment_close = (int (*)(Handle))fn[14];
    w.path_kind = path_kind; w.form_kind = form_kind;
    w.moveto = moveto; w.bezierto = bezierto;
    w.segments_left = max_segments; w.objects_left = max_objects; w.max_rules = max_rules;
    w.out = PyList_New(0);
    if (w.out == NULL) return NULL;
    int status = walk_objects(&w, page, 0, IDENTITY, 1);
    PyMem_Free(w.xs);
    PyMem_Free(w.ys);
    if (status == WALK_OK) return w.out;
    Py_DECREF(w.out);
    if (status == WALK_TOO_MANY) Py_RETURN_NONE;
    return NULL;
}

/* ---------------------------------------------------------------- lines (tables_text.py) */

/* A word where group_lines sorts it: by twice its centre, then its left edge, then where
 * it came (Python's sort is stable). */
typedef struct { double key, x0, y0, y1; Py_ssize_t at; PyObject *word; } Placed;

static PyObject *s_x0, *s_y0, *s_x1, *s_y1, *s_size; /* interned attribute names */

static int get_double(PyObject *obj, PyObject *name, double *out) {
    PyObject *v = PyObject_GetAttr(obj, name);
    if (v == NULL) return -1;
    *out = PyFloat_AsDouble(v);
    Py_DECREF(v);
    return (*out == -1.0 && PyErr_Occurred()) ? -1 : 0;
}

/* A word's fields read at their slots' offsets rather than by name (~10x cheaper; the
 * line loops read each word's box and size a few times). Known for the last class seen
 * (model.Word, as the words loop makes it) while its version tag holds: Python clears the
 * tag when the class changes, and a class that is not slotted (or any other object) is read
 * by name. Fields by their index in WORD_FIELDS. */
enum { W_TEXT = 0, W_X0 = 1, W_Y0 = 2, W_X1 = 3, W_Y1 = 4, W_SIZE = 5, W_BOLD = 6 };
static PyTypeObject *seen_type; /* a strong reference: its address stays its own */
static unsigned int seen_tag;
static Slots word_read; /* .type NULL: seen_type is read by name */

static const Slots *word_slots(PyObject *obj) {
    PyTypeObject *t = Py_TYPE(obj);
    if (t == seen_type && seen_tag != 0 && t->tp_version_tag == seen_tag)
        return word_read.type != NULL ? &word_read : NULL;
    Slots s;
    if (slots_of((PyObject *)t, WORD_FIELDS, 8, &s) < 0) {
        PyErr_Clear(); /* a field it does not have: read by name, which says so */
        s.type = NULL;
    }
    Py_INCREF(t);
    Py_XSETREF(seen_type, t);
    seen_tag = t->tp_version_tag;
    word_read = s;
    return s.type != NULL && seen_tag != 0 ? &word_read : NULL;
}

/* Field ``k`` of ``w`` (borrowed), or NULL when it is not read directly (the caller reads
 * it by name). */
static inline PyObject *word_field(PyObject *w, const Slots *s, int k) {
    return s == NULL ? NULL : *(PyObject **)((char *)w + s->at[k]);
}

/* get_double on a word's field ``k`` (named ``name``), at its offset when it can be. */
static inline int word_double(PyObject *w, int k, PyObject *name, double *out) {
    PyObject *v = word_field(w, word_slots(w), k);
    if (v != NULL && PyFloat_CheckExact(v)) {
        *out = PyFloat_AS_DOUBLE(v);
        return 0;
    }
    return get_double(w, name, out);
}

static int by_centre(const void *a, const void *b) {
    const Placed *p = a, *q = b;
    if (p->key != q->key) return p->key < q->key ? -1 : 1;
    if (p->x0 != q->x0) return p->x0 < q->x0 ? -1 : 1;
    return p->at < q->at ? -1 : (p->at > q->at);
}

/* A line's words left to right; words at one x keep the line's order (by centre, then as
 * they came), as Python's stable sort of the line does. */
static int by_left(const void *a, const void *b) {
    const Placed *p = a, *q = b;
    if (p->x0 != q->x0) return p->x0 < q->x0 ? -1 : 1;
    if (p->key != q->key) return p->key < q->key ? -1 : 1;
    return p->at < q->at ? -1 : (p->at > q->at);
}

/* qsort, skipped when the records are in order already (most pages' words come top to
 * bottom, most lines' left to right): the order is total (``at`` breaks every tie), so
 * either way it is the same. */
static void sort_placed(Placed *placed, Py_ssize_t n, int (*cmp)(const void *, const void *)) {
    for (Py_ssize_t i = 1; i < n; i++)
        if (cmp(&placed[i - 1], &placed[i]) > 0) {
            qsort(placed, n, sizeof(Placed), cmp);
            return;
        }
}

/* How a word joins the row above: tables_text.group_lines' rule (the two vertical middles
 * inside each other's boxes, the row's box the tallest word's) or lines.make_lines' (twice
 * the word's centre inside twice the row's first word's span). */
enum { MIDDLES = 0, FIRST_SPAN = 1 };
/* lines._FULL: a box as tall as its type, within these multiples of the size. */
#define FULL_LO 0.9
#define FULL_HI 1.5

/* ``words`` sorted by centre, grouped into rows by ``rule``, each row left to right: a
 * list of lists; None when a coordinate is not a number (NaN): the Python loop decides. */
static PyObject *rows_of(PyObject *words, int rule) {
    PyObject *seq = PySequence_Fast(words, "a list of words");
    if (seq == NULL) return NULL;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
    PyObject **items = PySequence_Fast_ITEMS(seq);
    PyObject *rows = PyList_New(0);
    Placed *placed = PyMem_Calloc(n ? n : 1, sizeof(Placed));
    if (rows == NULL || placed == NULL) goto fail;
    for (Py_ssize_t i = 0; i < n; i++) {
        Placed *p = &placed[i];
        if (word_double(items[i], W_Y0, s_y0, &p->y0) < 0 ||
            word_double(items[i], W_Y1, s_y1, &p->y1) < 0 ||
            word_double(items[i], W_X0, s_x0, &p->x0) < 0)
            goto fail;
        p->key = p->y0 + p->y1;
        if (isnan(p->key) || isnan(p->x0)) {
            PyMem_Free(placed);
            Py_DECREF(rows);
            Py_DECREF(seq);
            Py_RETURN_NONE;
        }
        p->at = i;
        p->word = items[i];
    }
    sort_placed(placed, n, by_centre);
    double top = 0, bottom = 0;
    int is_short = 0; /* FIRST_SPAN: the row's first word's box is shorter than its type */
    Py_ssize_t start = 0;
    for (Py_ssize_t i = 0; i <= n; i++) {
        if (i > 0 && i < n) {
            const Placed *w = &placed[i];
            if (rule == FIRST_SPAN) {
                if (top <= w->key && w->key <= bottom) {
                    double h = w->y1 - w->y0;
                    double size = 0; /* read here and at a row's start only: few rows are short */
                    if (is_short && word_double(w->word, W_SIZE, s_size, &size) < 0) goto fail;
                    if (is_short && FULL_LO * size <= h && h <= FULL_HI * size) {
                        top = py_min(top, 2 * w->y0);
                        bottom = py_max(bottom, 2 * w->y1);
                        is_short = 0;
                    }
                    continue;
                }
            } else {
                double mid = (top + bottom) / 2;
                double centre = (w->y0 + w->y1) / 2;
                if ((top <= centre && centre <= bottom) || (w->y0 <= mid && mid <= w->y1)) {
                    double height = w->y1 - w->y0;
                    if ((height > 0.1 ? height : 0.1) > bottom - top) {
                        top = w->y0;
                        bottom = w->y1;
                    }
                    continue;
                }
            }
        }
        if (i > 0) { /* the row placed[start:i] is complete */
            sort_placed(placed + start, i - start, by_left);
            PyObject *row = PyList_New(i - start);
            if (row == NULL) goto fail;
            for (Py_ssize_t k = start; k < i; k++)
                PyList_SET_ITEM(row, k - start, Py_NewRef(placed[k].word));
            int bad = PyList_Append(rows, row);
            Py_DECREF(row);
            if (bad < 0) goto fail;
        }
        if (i < n) {
            start = i;
            int twice = rule == FIRST_SPAN;
            top = twice ? 2 * placed[i].y0 : placed[i].y0;
            bottom = twice ? 2 * placed[i].y1 : placed[i].y1;
            double size = 0;
            if (twice && word_double(placed[i].word, W_SIZE, s_size, &size) < 0) goto fail;
            is_short = twice && placed[i].y1 - placed[i].y0 < FULL_LO * size;
        }
    }
    PyMem_Free(placed);
    Py_DECREF(seq);
    return rows;
fail:
    PyMem_Free(placed);
    Py_XDECREF(rows);
    Py_DECREF(seq);
    return NULL;
}

PyDoc_STRVAR(group_lines_doc,
"group_lines(words)\n\n"
"The loop of tables_text.group_lines: ``words`` grouped into lines (lists), top to bottom,\n"
"each left to right; None when a coordinate is not a number (NaN): the Python loop decides.");

static PyObject *group_lines(PyObject *Py_UNUSED(self), PyObject *words) {
    return rows_of(words, MIDDLES);
}

/* tables_text.em: the word's font size, or its box height when the size is unknown. */
static int word_em(PyObject *word, double *em) {
    double size, y0, y1;
    if (word_double(word, W_SIZE, s_size, &size) < 0) return -1;
    if (size > 0.5) {
        *em = size;
        return 0;
    }
    if (word_double(word, W_Y0, s_y0, &y0) < 0 || word_double(word, W_Y1, s_y1, &y1) < 0)
        return -1;
    *em = py_max(1.0, py_max(0.1, y1 - y0) / 1.15);
    return 0;
}

PyDoc_STRVAR(runs_doc,
"runs(line, number_gap_em, segment_em, same_cell)\n\n"
"The loop of tables_text.runs: ``line`` cut into runs (lists of words) at the gaps that\n"
"separate cells; a gap between the two widths is decided by ``same_cell(prev, word, gap,\n"
"size)`` (true: one run).");

static PyObject *runs(PyObject *Py_UNUSED(self), PyObject *args) {
    PyObject *line, *same_cell;
    double number_gap_em, segment_em;
    if (!PyArg_ParseTuple(args, "OddO", &line, &number_gap_em, &segment_em, &same_cell))
        return NULL;
    PyObject *seq = PySequence_Fast(line, "runs takes a list of words");
    if (seq == NULL) return NULL;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
    PyObject **items = PySequence_Fast_ITEMS(seq);
    PyObject *out = PyList_New(0), *run = NULL;
    if (out == NULL) goto fail;
    double prev_em = 0, prev_x1 = 0;
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *word = items[i];
        double em, x0, x1;
        if (word_em(word, &em) < 0 || word_double(word, W_X0, s_x0, &x0) < 0 ||
            word_double(word, W_X1, s_x1, &x1) < 0)
            goto fail;
        int join = 0;
        if (run != NULL) {
            double size = py_max(prev_em, em);
            double gap = x0 - prev_x1;
            if (gap <= number_gap_em * size) {
                join = 1;
            } else if (!(gap > segment_em * size)) {
                PyObject *r = PyObject_CallFunction(same_cell, "OOdd", items[i - 1], word, gap,
                                                    size);
                if (r == NULL) goto fail;
                join = PyObject_IsTrue(r);
                Py_DECREF(r);
                if (join < 0) goto fail;
            }
        }
        if (join) {
            if (PyList_Append(run, word) < 0) goto fail;
        } else {
            run = PyList_New(1); /* borrowed below: out holds it */
            if (run == NULL) goto fail;
            PyList_SET_ITEM(run, 0, Py_NewRef(word));
            int bad = PyList_Append(out, run);
            Py_DECREF(run);
            if (bad < 0) goto fail;
        }
        prev_em = em;
        prev_x1 = x1;
    }
    Py_DECREF(seq);
    return out;
fail:
    Py_XDECREF(out);
    Py_DECREF(seq);
    return NULL;
}

/* ---------------------------------------------------------------- lines (lines.py) */

static PyObject *s_text, *s_bold, *s_space; /* interned names; " " */

PyDoc_STRVAR(bands_doc,
"bands(words)\n\n"
"The first loop of lines.make_lines: ``words`` in rows (lists), top to bottom, each left\n"
"to right; a word joins a row while twice its centre is inside twice the row's first\n"
"word's span (grown to the first full-height word's when that box is shorter than its\n"
"type). None when a coordinate is not a number (NaN): the Python loop decides.");

static PyObject *bands(PyObject *Py_UNUSED(self), PyObject *words) {
    return rows_of(words, FIRST_SPAN);
}

/* A column gutter (gutters.Gutter): an empty strip at x from row top y0 to row bottom y1. */
typedef struct { double x, y0, y1; } GutterBox;

/* What split_rows works with: the callbacks into lines.py, the Line class (made directly
 * when slots_of allows) and the page's gutters. */
typedef struct {
    PyObject *line_cls, *is_label, *make_line, *lines;
    Slots line_slots;
    GutterBox *gutters;
    Py_ssize_t n_gutters;
} Split;

/* A model.Line's fields, in the order its dataclass takes them. */
static const char *const LINE_FIELDS[] = {"words", "x0", "y0", "x1", "y1", "size", "bold", "text"};

static int is_rtl_start(PyObject *text) {
    if (PyUnicode_GET_LENGTH(text) == 0) return 0;
    Py_UCS4 c = PyUnicode_READ_CHAR(text, 0);
    return (0x0590 <= c && c <= 0x08FF) || (0xFB1D <= c && c <= 0xFEFC);
}

/* lines.make_line of ``run``, appended to the lines. Made here when every word is read at
 * its slots (word_slots) with a float box and size, a bool weight and a str text, no word
 * right to left, no size NaN and at most 16 sizes: the box's edges and the size are the
 * words' own objects, as Python's min/max and the size count pick them. Anything else
 * goes to make_line itself. */
static int emit_line(Split *sp, PyObject *run) {
    Py_ssize_t n = PyList_GET_SIZE(run);
    if (n == 0) return 0; /* never: a run holds its first word (kept for safety) */
    double box[4] = {0, 0, 0, 0};
    PyObject *edge[4] = {NULL, NULL, NULL, NULL}; /* x0, y0 (min), x1, y1 (max) */
    double sizes[16];
    PyObject *size_objs[16];
    Py_ssize_t counts[16];
    int distinct = 0, python = 0;
    Py_ssize_t bold_chars = 0, total = 0;
    PyObject *texts = PyList_New(n), *line = NULL;
    if (texts == NULL) return -1;
    for (Py_ssize_t i = 0; i < n && !python; i++) {
        PyObject *w = PyList_GET_ITEM(run, i);
        const Slots *s = word_slots(w);
        PyObject *text = word_field(w, s, W_TEXT), *size_obj = word_field(w, s, W_SIZE);
        PyObject *bold = word_field(w, s, W_BOLD);
        if (text == NULL || !PyUnicode_Check(text) || size_obj == NULL ||
            !PyFloat_CheckExact(size_obj) || isnan(PyFloat_AS_DOUBLE(size_obj)) ||
            (bold != Py_True && bold != Py_False) || is_rtl_start(text)) {
            python = 1;
            break;
        }
        for (int j = 0; j < 4; j++) {
            PyObject *v = word_field(w, s, W_X0 + j);
            if (v == NULL || !PyFloat_CheckExact(v)) {
                python = 1;
                break;
            }
            double d = PyFloat_AS_DOUBLE(v);
            /* Python's min and max: the first, unless a later one is beyond it. */
            if (i == 0 || (j < 2 ? d < box[j] : d > box[j])) {
                box[j] = d;
                edge[j] = v;
            }
        }
        if (python) break;
        PyList_SET_ITEM(texts, i, Py_NewRef(text));
        Py_ssize_t len = PyUnicode_GET_LENGTH(text);
        double size = PyFloat_AS_DOUBLE(size_obj);
        int k = 0;
        while (k < distinct && sizes[k] != size) k++;
        if (k == distinct) {
            if (distinct == 16) {
                python = 1;
                break;
            }
            sizes[k] = size;
            size_objs[k] = size_obj; /* the first word's in this size: the dict's key */
            counts[k] = 0;
            distinct++;
        }
        counts[k] += len;
        total += len;
        if (bold == Py_True) bold_chars += len;
    }
    if (python) {
        line = PyObject_CallOneArg(sp->make_line, run);
    } else {
        int best = 0;
        for (int k = 1; k < distinct; k++)
            if (counts[k] > counts[best]) best = k;
        PyObject *text = PyUnicode_Join(s_space, texts);
        if (text != NULL) {
            PyObject *values[8] = {run,     edge[0],         edge[1],
                                   edge[2], edge[3],         size_objs[best],
                                   bold_chars * 2 > total ? Py_True : Py_False, text};
            line = sp->line_slots.type != NULL
                       ? slots_new(&sp->line_slots, values)
                       : PyObject_CallFunctionObjArgs(sp->line_cls, values[0], values[1],
                                                      values[2], values[3], values[4],
                                                      values[5], values[6], values[7], NULL);
            Py_DECREF(text);
        }
    }
    Py_DECREF(texts);
    if (line == NULL) return -1;
    int bad = PyList_Append(sp->lines, line);
    Py_DECREF(line);
    return bad;
}

/* The gutters (objects with x, y0, y1) as numbers, into sp; -1 on an error. */
static int read_gutters(Split *sp, PyObject *gutters) {
    Py_ssize_t n = PyList_GET_SIZE(gutters);
    sp->gutters = PyMem_Malloc(sizeof(GutterBox) * (n ? n : 1));
    if (sp->gutters == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    for (Py_ssize_t k = 0; k < n; k++) {
        PyObject *g = PyList_GET_ITEM(gutters, k);
        PyObject *x = PyObject_GetAttrString(g, "x");
        double v = x ? PyFloat_AsDouble(x) : -1.0;
        Py_XDECREF(x);
        if ((v == -1.0 && PyErr_Occurred()) || get_double(g, s_y0, &sp->gutters[k].y0) < 0 ||
            get_double(g, s_y1, &sp->gutters[k].y1) < 0)
            return -1;
        sp->gutters[k].x = v;
    }
    sp->n_gutters = n;
    return 0;
}

/* gutters.gutter_at: a gutter runs between neighbours ending at prev_x1 and starting at
 * x0, and over the word's centre cy. */
static int gutter_between(const Split *sp, double prev_x1, double x0, double cy) {
    for (Py_ssize_t k = 0; k < sp->n_gutters; k++) {
        const GutterBox *g = &sp->gutters[k];
        if (prev_x1 <= g->x && g->x <= x0 && g->y0 <= cy && cy <= g->y1) return 1;
    }
    return 0;
}

PyDoc_STRVAR(split_rows_doc,
"split_rows(rows, split_em, label_gap_em, line_cls, is_label, gutters, make_line)\n\n"
"The second loop of lines.make_lines: each row cut into Lines at wide gaps, font size\n"
"changes and the column ``gutters`` (a list of gutters.Gutter, or None); a label\n"
"(``is_label(run)``) keeps the text a tab away.");

static PyObject *split_rows(PyObject *Py_UNUSED(self), PyObject *args) {
    PyObject *rows, *gutters;
    double split_em, label_gap_em;
    Split sp = {0};
    if (!PyArg_ParseTuple(args, "O!ddOOOO", &PyList_Type, &rows, &split_em, &label_gap_em,
                          &sp.line_cls, &sp.is_label, &gutters, &sp.make_line))
        return NULL;
    if (gutters != Py_None && !PyList_Check(gutters)) {
        PyErr_SetString(PyExc_TypeError, "gutters is a list or None");
        return NULL;
    }
    if (slots_of(sp.line_cls, LINE_FIELDS, 8, &sp.line_slots) < 0) return NULL;
    if (gutters != Py_None && read_gutters(&sp, gutters) < 0) {
        PyMem_Free(sp.gutters);
        return NULL;
    }
    sp.lines = PyList_New(0);
    if (sp.lines == NULL) {
        PyMem_Free(sp.gutters);
        return NULL;
    }
    for (Py_ssize_t r = 0; r < PyList_GET_SIZE(rows); r++) {
        PyObject *row = PyList_GET_ITEM(rows, r);
        if (!PyList_Check(row) || PyList_GET_SIZE(row) == 0) {
            PyErr_SetString(PyExc_TypeError, "rows are non-empty lists of words");
            goto fail;
        }
        PyObject *run = PyList_New(0);
        if (run == NULL || PyList_Append(run, PyList_GET_ITEM(row, 0)) < 0) {
            Py_XDECREF(run);
            goto fail;
        }
        double prev_size, prev_x1;
        PyObject *first = PyList_GET_ITEM(row, 0);
        if (word_double(first, W_SIZE, s_size, &prev_size) < 0 ||
            word_double(first, W_X1, s_x1, &prev_x1) < 0)
            goto fail_run;
        for (Py_ssize_t i = 1; i < PyList_GET_SIZE(row); i++) {
            PyObject *word = PyList_GET_ITEM(row, i);
            double size, x0, x1;
            if (word_double(word, W_SIZE, s_size, &size) < 0 ||
                word_double(word, W_X0, s_x0, &x0) < 0 || word_double(word, W_X1, s_x1, &x1) < 0)
                goto fail_run;
            double em = py_max(py_max(prev_size, size), 1.0);
            double gap = x0 - prev_x1;
            int wide = gap > split_em * em, cut = wide;
            if (wide && gap <= label_gap_em * em) {
                PyObject *r2 = PyObject_CallOneArg(sp.is_label, run);
                if (r2 == NULL) goto fail_run;
                int label = PyObject_IsTrue(r2);
                Py_DECREF(r2);
                if (label < 0) goto fail_run;
                if (label) cut = 0;
            } else if (!cut && (fabs(size - prev_size) > 0.3 * em)) {
                cut = 1;
            } else if (!cut && sp.n_gutters > 0) {
                double y0, y1;
                if (word_double(word, W_Y0, s_y0, &y0) < 0 ||
                    word_double(word, W_Y1, s_y1, &y1) < 0)
                    goto fail_run;
                cut = gutter_between(&sp, prev_x1, x0, (y0 + y1) * 0.5);
            }
            if (cut) {
                int bad = emit_line(&sp, run);
                Py_DECREF(run);
                if (bad < 0) goto fail;
                run = PyList_New(0);
                if (run == NULL) goto fail;
            }
            if (PyList_Append(run, word) < 0) goto fail_run;
            prev_size = size;
            prev_x1 = x1;
        }
        int bad = emit_line(&sp, run);
        Py_DECREF(run);
        if (bad < 0) goto fail;
        continue;
    fail_run:
        Py_DECREF(run);
        goto fail;
    }
    PyMem_Free(sp.gutters);
    return sp.lines;
fail:
    PyMem_Free(sp.gutters);
    Py_DECREF(sp.lines);
    return NULL;
}

PyDoc_STRVAR(label_gap_doc,
"label_gap(rows, match, label_gap_em, column_gap_em, column_rows)\n\n"
"lines._label_gap: ``label_gap_em``, or more where at least ``column_rows`` rows whose\n"
"first word is a label (``match(text)`` true) at one x (rounded) have their next word at\n"
"one x, up to ``column_gap_em`` away: the widest such gap and 0.01. None when a box or\n"
"size is not a float or not finite, or a text not a str: the Python loop decides.");

static PyObject *label_gap(PyObject *Py_UNUSED(self), PyObject *args) {
    PyObject *rows, *match;
    double label_gap_em, column_gap_em;
    Py_ssize_t column_rows;
    if (!PyArg_ParseTuple(args, "O!Oddn", &PyList_Type, &rows, &match, &label_gap_em,
                          &column_gap_em, &column_rows))
        return NULL;
    /* The (rounded first x, rounded next x) pairs seen: rows, their widest gap. */
    typedef struct { double at, next, widest; Py_ssize_t rows; } Pair;
    Py_ssize_t n_rows = PyList_GET_SIZE(rows), n = 0;
    Pair *pairs = PyMem_Malloc(sizeof(Pair) * (n_rows ? n_rows : 1));
    if (pairs == NULL) return PyErr_NoMemory();
    PyObject *out = NULL;
    for (Py_ssize_t r = 0; r < n_rows; r++) {
        PyObject *row = PyList_GET_ITEM(rows, r);
        if (!PyList_Check(row)) {
            PyErr_SetString(PyExc_TypeError, "rows are lists of words");
            goto done;
        }
        if (PyList_GET_SIZE(row) < 2) continue;
        PyObject *first = PyList_GET_ITEM(row, 0), *next = PyList_GET_ITEM(row, 1);
        const Slots *a = word_slots(first), *b = word_slots(next);
        PyObject *text = word_field(first, a, W_TEXT);
        PyObject *v[5] = {word_field(first, a, W_X0), word_field(first, a, W_X1),
                          word_field(first, a, W_SIZE), word_field(next, b, W_X0),
                          word_field(next, b, W_SIZE)};
        double d[5];
        if (text == NULL || !PyUnicode_CheckExact(text)) goto python;
        for (int k = 0; k < 5; k++) {
            if (v[k] == NULL || !PyFloat_CheckExact(v[k])) goto python;
            d[k] = PyFloat_AS_DOUBLE(v[k]);
            if (!isfinite(d[k])) goto python; /* round() would raise: Python says so */
        }
        /* The gap before the label test (Python asks it after: the same rows count). */
        double gap = (d[3] - d[1]) / py_max(py_max(d[2], d[4]), 1.0);
        if (!(0 < gap && gap <= column_gap_em)) continue;
        PyObject *got = PyObject_CallOneArg(match, text);
        if (got == NULL) goto done;
        int is_label = PyObject_IsTrue(got);
        Py_DECREF(got);
        if (is_label < 0) goto done;
        if (!is_label) continue;
        /* round(): half to even, as nearbyint in the default rounding mode. */
        double at = nearbyint(d[0]), nx = nearbyint(d[3]);
        Py_ssize_t k = 0;
        while (k < n && !(pairs[k].at == at && pairs[k].next == nx)) k++;
        if (k == n) {
            pairs[n++] = (Pair){at, nx, 0.0, 0};
        }
        pairs[k].rows++;
        pairs[k].widest = py_max(pairs[k].widest, gap);
    }
    double widest = label_gap_em;
    for (Py_ssize_t k = 0; k < n; k++)
        if (pairs[k].rows >= column_rows) widest = py_max(widest, pairs[k].widest + 0.01);
    out = PyFloat_FromDouble(widest);
    goto done;
python:
    out = Py_NewRef(Py_None);
done:
    PyMem_Free(pairs);
    return out;
}

PyDoc_STRVAR(gutter_votes_doc,
"gutter_votes(rows, lo, hi, bins, gap_em, bin_width, min_votes)\n\n"
"The vote of gutters.find_gutters: for each bin of ``bin_width`` points (``bins`` of them),\n"
"how many gaps wider than ``gap_em`` between neighbours of ``rows`` cover it, within\n"
"[lo, hi]; an empty list when fewer than ``min_votes`` gaps voted.");

static PyObject *gutter_votes(PyObject *Py_UNUSED(self), PyObject *args) {
    PyObject *rows;
    double lo, hi, gap_em, bin_width;
    Py_ssize_t bins, min_votes;
    if (!PyArg_ParseTuple(args, "O!ddnddn", &PyList_Type, &rows, &lo, &hi, &bins, &gap_em,
                          &bin_width, &min_votes))
        return NULL;
    if (bins < 0) {
        PyErr_SetString(PyExc_ValueError, "bins is not negative");
        return NULL;
    }
    Py_ssize_t *votes = PyMem_Calloc(bins + 1, sizeof(Py_ssize_t));
    if (votes == NULL) return PyErr_NoMemory();
    Py_ssize_t cast = 0;
    PyObject *out = NULL;
    for (Py_ssize_t r = 0; r < PyList_GET_SIZE(rows); r++) {
        PyObject *row = PyList_GET_ITEM(rows, r);
        if (!PyList_Check(row) || PyList_GET_SIZE(row) == 0) {
            PyErr_SetString(PyExc_TypeError, "rows are non-empty lists of words");
            goto done;
        }
        double prev_size, prev_x1;
        PyObject *first = PyList_GET_ITEM(row, 0);
        if (word_double(first, W_SIZE, s_size, &prev_size) < 0 ||
            word_double(first, W_X1, s_x1, &prev_x1) < 0)
            goto done;
        for (Py_ssize_t i = 1; i < PyList_GET_SIZE(row); i++) {
            PyObject *word = PyList_GET_ITEM(row, i);
            double size, x0, x1;
            if (word_double(word, W_SIZE, s_size, &size) < 0 ||
                word_double(word, W_X0, s_x0, &x0) < 0 || word_double(word, W_X1, s_x1, &x1) < 0)
                goto done;
            /* As gutters.py writes it: the larger size, at least 1. */
            double em = size > prev_size ? size : prev_size;
            if (x0 - prev_x1 > gap_em * (1.0 > em ? 1.0 : em)) {
                double a = py_max(prev_x1, lo), b = py_min(x0, hi);
                if (b > a) {
                    /* int() of a non-negative quotient: truncation, in range as in Python
                     * (lo <= a < b <= hi); checked all the same. */
                    Py_ssize_t from = (Py_ssize_t)(a / bin_width) + 1;
                    Py_ssize_t to = (Py_ssize_t)(b / bin_width);
                    if (from < 0 || from > bins || to < 0 || to > bins) {
                        PyErr_SetString(PyExc_IndexError, "a gap outside the page's bins");
                        goto done;
                    }
                    votes[from] += 1;
                    votes[to] -= 1;
                    cast++;
                }
            }
            prev_size = size;
            prev_x1 = x1;
        }
    }
    out = PyList_New(cast < min_votes ? 0 : bins);
    if (out == NULL || cast < min_votes) goto done;
    Py_ssize_t run = 0;
    for (Py_ssize_t k = 0; k < bins; k++) {
        run += votes[k];
        PyObject *v = PyLong_FromSsize_t(run);
        if (v == NULL) {
            Py_CLEAR(out);
            goto done;
        }
        PyList_SET_ITEM(out, k, v);
    }
done:
    PyMem_Free(votes);
    return out;
}

/* ---------------------------------------------------------------- rotation (rules.py) */

PyDoc_STRVAR(angle_votes_doc,
"angle_votes(textpage, functions, count, step)\n\n"
"The loop of rules.text_rotation: of every ``step``-th of the ``count`` characters (spaces\n"
"and control characters aside), the votes for each quarter turn (0, 90, 180, 270) by its\n"
"angle. ``functions`` are the addresses of FPDFText_GetUnicode and FPDFText_GetCharAngle.");

static PyObject *angle_votes(PyObject *Py_UNUSED(self), PyObject *args) {
    PyObject *textpage_obj, *unicode_obj, *angle_obj;
    int count, step;
    if (!PyArg_ParseTuple(args, "O(OO)ii", &textpage_obj, &unicode_obj, &angle_obj, &count,
                          &step))
        return NULL;
    Handle textpage = address(textpage_obj);
    unsigned (*get_unicode)(Handle, int) = (unsigned (*)(Handle, int))address(unicode_obj);
    float (*get_angle)(Handle, int) = (float (*)(Handle, int))address(angle_obj);
    if (PyErr_Occurred()) return NULL;
    if (!get_unicode || !get_angle || step < 1) {
        PyErr_SetString(PyExc_ValueError, "angle_votes needs 2 PDFium functions and a step");
        return NULL;
    }
    long votes[4] = {0, 0, 0, 0};
    const double to_degrees = 180.0 / Py_MATH_PI; /* as math.degrees */
    for (int index = 0; index < count; index += step) {
        if (get_unicode(textpage, index) <= 32) continue;
        double angle = get_angle(textpage, index);
        if (angle < 0) continue;
        long quarter = (long)nearbyint(angle * to_degrees / 90); /* round(): half to even */
        votes[((quarter % 4) + 4) % 4]++;
    }
    return Py_BuildValue("(llll)", votes[0], votes[1], votes[2], votes[3]);
}

/* ------------------------------------- ruling lines (rules._merge, tables_rules.py) */

static PyObject *builtin_sum; /* Python's sum(): a group's mean position as rules.py takes it */

/* A rule (or a word) by its box: what the grid loops read once from the objects. */
typedef struct { double x0, y0, x1, y1; Py_ssize_t at; PyObject *obj; } Box;

/* (position across, start along, end along) and where it came: rules._merge's and
 * tables_rules' spans; sorted as Python sorts the tuples (then as they came: stable). */
typedef struct { double at, a0, a1; Py_ssize_t index; } Span;

static int by_span(const void *a, const void *b) {
    const Span *p = a, *q = b;
    if (p->at != q->at) return p->at < q->at ? -1 : 1;
    if (p->a0 != q->a0) return p->a0 < q->a0 ? -1 : 1;
    if (p->a1 != q->a1) return p->a1 < q->a1 ? -1 : 1;
    return p->index < q->index ? -1 : (p->index > q->index);
}

static int by_double(const void *a, const void *b) {
    double p = *(const double *)a, q = *(const double *)b;
    return p < q ? -1 : (p > q);
}

/* The boxes of a list of objects with x0, y0, x1, y1; -1 on an error, 1 when a coordinate
 * is not a number (the Python loop decides then), 0 else. */
static int read_boxes(PyObject *seq, Box **out, Py_ssize_t *n) {
    *n = PySequence_Fast_GET_SIZE(seq);
    PyObject **items = PySequence_Fast_ITEMS(seq);
    Box *boxes = PyMem_Calloc(*n ? *n : 1, sizeof(Box));
    if (boxes == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    *out = boxes;
    for (Py_ssize_t i = 0; i < *n; i++) {
        Box *b = &boxes[i];
        if (get_double(items[i], s_x0, &b->x0) < 0 || get_double(items[i], s_y0, &b->y0) < 0 ||
            get_double(items[i], s_x1, &b->x1) < 0 || get_double(items[i], s_y1, &b->y1) < 0)
            return -1;
        if (isnan(b->x0) || isnan(b->y0) || isnan(b->x1) || isnan(b->y1)) return 1;
        b->at = i;
        b->obj = items[i];
    }
    return 0;
}

/* bisect.bisect_left (right = 0) or bisect_right (right = 1) over n records of ``size``
 * bytes sorted by the double ``offset`` bytes into each (a span's position, a box's top). */
static Py_ssize_t bisect_at(const void *records, size_t size, size_t offset, Py_ssize_t n,
                            double x, int right) {
    Py_ssize_t lo = 0, hi = n;
    while (lo < hi) {
        Py_ssize_t mid = (lo + hi) / 2;
        double v = *(const double *)((const char *)records + mid * size + offset);
        if (right ? !(x < v) : v < x) lo = mid + 1; else hi = mid;
    }
    return lo;
}

static Py_ssize_t span_left(const Span *s, Py_ssize_t n, double x) {
    return bisect_at(s, sizeof(Span), offsetof(Span, at), n, x, 0);
}

static Py_ssize_t span_right(const Span *s, Py_ssize_t n, double x) {
    return bisect_at(s, sizeof(Span), offsetof(Span, at), n, x, 1);
}

/* tables_rules._span: a rule's (position across, start along, end along). */
static Span span_of(const Box *b, int horizontal, Py_ssize_t index) {
    Span s = {horizontal ? b->y0 : b->x0, horizontal ? b->x0 : b->y0,
              horizontal ? b->x1 : b->y1, index};
    return s;
}

/* statistics.median of n sorted values. */
static double median_sorted(const double *v, Py_ssize_t n) {
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

PyDoc_STRVAR(merge_pieces_doc,
"merge_pieces(boxes, tol, rule)\n\n"
"The loop of rules._merge: collinear (x0, y0, x1, y1) pieces that touch or overlap as\n"
"one ``rule(x0, y0, x1, y1)`` each, horizontal ones first; None when a coordinate is not\n"
"a number (NaN): the Python loop decides.");

static PyObject *merge_pieces(PyObject *Py_UNUSED(self), PyObject *args) {
    PyObject *boxes_obj, *rule_cls;
    double tol;
    if (!PyArg_ParseTuple(args, "OdO", &boxes_obj, &tol, &rule_cls)) return NULL;
    PyObject *seq = PySequence_Fast(boxes_obj, "a list of boxes");
    if (seq == NULL) return NULL;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
    PyObject **items = PySequence_Fast_ITEMS(seq);
    Span *spans = PyMem_Calloc(n ? n : 1, sizeof(Span));
    PyObject *merged = PyList_New(0);
    if (spans == NULL || merged == NULL) goto fail;
    Py_ssize_t nh = 0, nv = 0;
    /* Horizontal spans from the front of the array, vertical ones from the back (sorted
     * with where they came as the last key, so the order they are put in does not count). */
    for (Py_ssize_t i = 0; i < n; i++) {
        double c[4];
        PyObject *box = PySequence_Fast(items[i], "a box of four numbers");
        if (box == NULL) goto fail;
        if (PySequence_Fast_GET_SIZE(box) != 4) {
            Py_DECREF(box);
            PyErr_SetString(PyExc_ValueError, "a box of four numbers");
            goto fail;
        }
        for (int k = 0; k < 4; k++) c[k] = PyFloat_AsDouble(PySequence_Fast_GET_ITEM(box, k));
        Py_DECREF(box);
        if (PyErr_Occurred()) goto fail;
        if (isnan(c[0]) || isnan(c[1]) || isnan(c[2]) || isnan(c[3])) {
            PyMem_Free(spans);
            Py_DECREF(merged);
            Py_DECREF(seq);
            Py_RETURN_NONE;
        }
        if (fabs(c[3] - c[1]) <= fabs(c[2] - c[0])) {
            Span s = {c[1], c[0], c[2], i};
            spans[nh++] = s;
        } else {
            Span s = {c[0], c[1], c[3], i};
            spans[n - 1 - nv++] = s;
        }
    }
    for (int horizontal = 1; horizontal >= 0; horizontal--) {
        Span *s = horizontal ? spans : spans + nh;
        Py_ssize_t m = horizontal ? nh : nv;
        qsort(s, m, sizeof(Span), by_span);
        Py_ssize_t start = 0;
        while (start < m) {
            Py_ssize_t end = start + 1; /* a group: within tol of its first span's position */
            while (end < m && s[end].at - s[start].at <= tol) end++;
            PyObject *positions = PyList_New(end - start);
            if (positions == NULL) goto fail;
            for (Py_ssize_t k = start; k < end; k++) {
                PyObject *v = PyFloat_FromDouble(s[k].at);
                if (v == NULL) {
                    Py_DECREF(positions);
                    goto fail;
                }
                PyList_SET_ITEM(positions, k - start, v);
            }
            PyObject *total = PyObject_CallOneArg(builtin_sum, positions);
            Py_DECREF(positions);
            if (total == NULL) goto fail;
            double pos = PyFloat_AsDouble(total) / (double)(end - start);
            Py_DECREF(total);
            if (PyErr_Occurred()) goto fail;
            /* The group's pieces by (start, end): the spans with their position dropped. */
            Span *pieces = PyMem_Calloc(end - start, sizeof(Span));
            if (pieces == NULL) goto fail;
            for (Py_ssize_t k = start; k < end; k++) {
                Span p = {s[k].a0, s[k].a1, 0, 0};
                pieces[k - start] = p;
            }
            qsort(pieces, end - start, sizeof(Span), by_span);
            double lo = pieces[0].at, hi = pieces[0].a0;
            for (Py_ssize_t k = 1; k <= end - start; k++) {
                double a = k < end - start ? pieces[k].at : INFINITY;
                double b = k < end - start ? pieces[k].a0 : INFINITY;
                if (a <= hi + tol) {
                    hi = py_max(hi, b);
                    continue;
                }
                PyObject *rule = horizontal
                    ? PyObject_CallFunction(rule_cls, "dddd", lo, pos, hi, pos)
                    : PyObject_CallFunction(rule_cls, "dddd", pos, lo, pos, hi);
                if (rule == NULL || PyList_Append(merged, rule) < 0) {
                    Py_XDECREF(rule);
                    PyMem_Free(pieces);
                    goto fail;
                }
                Py_DECREF(rule);
                lo = a;
                hi = b;
            }
            PyMem_Free(pieces);
            start = end;
        }
    }
    PyMem_Free(spans);
    Py_DECREF(seq);
    return merged;
fail:
    PyMem_Free(spans);
    Py_XDECREF(merged);
    Py_DECREF(seq);
    return NULL;
}

/* round(value, 1) as Python gives it: a tenth by C where the product is clearly off a
 * tie, Python's own round() where it is within a rounding of one (or huge). */
static int round_tenth(double value, double *out) {
    double scaled = value * 10, frac = scaled - floor(scaled);
    if (fabs(value) < 1e6 && fabs(frac - 0.5) > 1e-6) {
        *out = nearbyint(scaled) / 10;
        return 0;
    }
    PyObject *v = PyObject_CallFunction(builtin_round, "di", value, 1);
    if (v == NULL) return -1;
    *out = PyFloat_AsDouble(v);
    Py_DECREF(v);
    return PyErr_Occurred() ? -1 : 0;
}

/* tables_rules._plausible over the words' (y0, y1) boxes: about a line high. -1 on an
 * error, else 0 or 1. */
static int plausible(const Box *words, Py_ssize_t n, double *heights, double *tops,
                     double tall) {
    for (Py_ssize_t i = 0; i < n; i++) heights[i] = words[i].y1 - words[i].y0;
    qsort(heights, n, sizeof(double), by_double);
    double height = median_sorted(heights, n);
    for (Py_ssize_t i = 0; i < n; i++)
        if (round_tenth(words[i].y0, &tops[i]) < 0) return -1;
    qsort(tops, n, sizeof(double), by_double);
    Py_ssize_t distinct = 0, steps = 0;
    for (Py_ssize_t i = 0; i < n; i++)
        if (distinct == 0 || tops[i] != tops[distinct - 1]) tops[distinct++] = tops[i];
    for (Py_ssize_t i = 1; i < distinct; i++) {
        double step = tops[i] - tops[i - 1];
        if (step > 0.3 * height) heights[steps++] = step; /* heights is free again */
    }
    if (steps == 0) return 0;
    qsort(heights, steps, sizeof(double), by_double);
    return height <= tall * median_sorted(heights, steps);
}

/* tables_rules._touching: a line above b in the same column, their boxes touching. */
static int touching(const Box *a, const Box *b, double y, double touch) {
    double height = py_min(a->y1 - a->y0, b->y1 - b->y0);
    return a->y0 + a->y1 < b->y0 + b->y1 && a->x0 < b->x1 && b->x0 < a->x1 &&
           b->y0 - a->y1 <= touch * height && a->y0 + 0.5 * (a->y1 - a->y0) < y &&
           y < b->y1 - 0.5 * (b->y1 - b->y0);
}

static int by_box(const void *a, const void *b) { /* (y0, y1, x0, x1), then as they came */
    const Box *p = a, *q = b;
    if (p->y0 != q->y0) return p->y0 < q->y0 ? -1 : 1;
    if (p->y1 != q->y1) return p->y1 < q->y1 ? -1 : 1;
    if (p->x0 != q->x0) return p->x0 < q->x0 ? -1 : 1;
    if (p->x1 != q->x1) return p->x1 < q->x1 ? -1 : 1;
    return p->at < q->at ? -1 : (p->at > q->at);
}

/* The first of n boxes sorted by y0 whose y0 is not below x (bisect_left on the tops). */
static Py_ssize_t top_left(const Box *b, Py_ssize_t n, double x) {
    return bisect_at(b, sizeof(Box), offsetof(Box, y0), n, x, 0);
}

typedef struct { double snap, touch, tall, inset; } GridParams;

/* tables_rules._between_lines over boxes: keeps (compacts) the rules of hs[0:nh] that do
 * not run between two lines of one paragraph and gives their count; -1 on an error.
 * ``words`` are sorted here (a copy the caller owns); heights, tops, near: scratch of nw. */
static Py_ssize_t between_lines(Box *hs, Py_ssize_t nh, Box *words, Py_ssize_t nw,
                                const GridParams *g, double *heights, double *tops,
                                const Box **near) {
    if (nw == 0) return nh;
    qsort(words, nw, sizeof(Box), by_box);
    int fits = plausible(words, nw, heights, tops, g->tall);
    if (fits <= 0) return fits < 0 ? -1 : nh;
    double tallest = words[0].y1 - words[0].y0;
    for (Py_ssize_t i = 0; i < nw; i++) {
        heights[i] = words[i].y1 - words[i].y0;
        if (heights[i] > tallest) tallest = heights[i];
    }
    qsort(heights, nw, sizeof(double), by_double);
    double reach = 3 * median_sorted(heights, nw);
    char *keep = PyMem_Calloc(nh ? nh : 1, 1);
    if (keep == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    for (Py_ssize_t r = 0; r < nh; r++) {
        const Box *h = &hs[r];
        double y = h->y0;
        keep[r] = 1;
        /* _partial: a rule this close above or below runs further left or right. */
        int partial = 0;
        for (Py_ssize_t o = 0; o < nh && !partial; o++)
            partial = fabs(hs[o].y0 - h->y0) <= reach &&
                      (hs[o].x0 < h->x0 - 2 * g->snap || hs[o].x1 > h->x1 + 2 * g->snap);
        if (!partial) continue;
        Py_ssize_t lo = top_left(words, nw, y - tallest - g->snap);
        Py_ssize_t hi = top_left(words, nw, y + g->snap), m = 0;
        for (Py_ssize_t k = lo; k < hi; k++) {
            const Box *b = &words[k];
            if (b->x0 < h->x1 && b->x1 > h->x0 && b->y0 - g->touch * (b->y1 - b->y0) <= y &&
                y <= b->y1 + g->touch * (b->y1 - b->y0))
                near[m++] = b;
        }
        for (Py_ssize_t i = 0; i < m && keep[r]; i++)
            for (Py_ssize_t j = 0; j < m; j++)
                if (touching(near[i], near[j], y, g->touch)) {
                    keep[r] = 0;
                    break;
                }
    }
    Py_ssize_t kept = 0;
    for (Py_ssize_t r = 0; r < nh; r++)
        if (keep[r]) hs[kept++] = hs[r];
    PyMem_Free(keep);
    return kept;
}

/* tables_rules._without_insets: the rules of rules[0:n] that no longer parallel rule a few
 * points off covers with no text between (compacted, in the order of their spans); -1 on
 * an error. ``points`` are the words' centres as (along, across) pairs. */
static Py_ssize_t without_insets(Box *rules, Py_ssize_t n, int horizontal, const double *points,
                                 Py_ssize_t np, const GridParams *g) {
    Span *spans = PyMem_Calloc(n ? n : 1, sizeof(Span));
    Box *copy = PyMem_Calloc(n ? n : 1, sizeof(Box));
    if (spans == NULL || copy == NULL) {
        PyMem_Free(spans);
        PyMem_Free(copy);
        PyErr_NoMemory();
        return -1;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        spans[i] = span_of(&rules[i], horizontal, i);
        copy[i] = rules[i];
    }
    qsort(spans, n, sizeof(Span), by_span);
    Py_ssize_t kept = 0;
    for (Py_ssize_t i = 0; i < n; i++) {
        double at = spans[i].at, a0 = spans[i].a0, a1 = spans[i].a1;
        Py_ssize_t lo = span_left(spans, n, at - g->inset), hi = span_right(spans, n, at + g->inset);
        int covered = 0;
        for (Py_ssize_t k = lo; k < hi && !covered; k++) {
            double o_at = spans[k].at, o0 = spans[k].a0, o1 = spans[k].a1;
            if (o0 > a0 + g->snap || o1 < a1 - g->snap) continue;
            /* _covers */
            if (fabs(o_at - at) <= g->snap || o0 > a0 + g->snap || o1 < a1 - g->snap) continue;
            if ((o1 - o0) - (a1 - a0) <= 2 * g->snap) continue; /* as long: a double border */
            double lo_at = py_min(at, o_at), hi_at = py_max(at, o_at);
            covered = 1;
            for (Py_ssize_t p = 0; p < np; p++) {
                double along = points[2 * p], across = points[2 * p + 1];
                if (a0 <= along && along <= a1 && lo_at < across && across < hi_at) {
                    covered = 0;
                    break;
                }
            }
        }
        if (!covered) rules[kept++] = copy[spans[i].index];
    }
    PyMem_Free(spans);
    PyMem_Free(copy);
    return kept;
}

/* tables_rules._meeting: the rules of rules[0:n] that two or more of across[0:m] touch or
 * cross (compacted, in their order); -1 on an error. */
static Py_ssize_t meeting(Box *rules, Py_ssize_t n, const Box *across, Py_ssize_t m,
                          int horizontal, double snap) {
    Span *others = PyMem_Calloc(m ? m : 1, sizeof(Span));
    if (others == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    for (Py_ssize_t i = 0; i < m; i++) others[i] = span_of(&across[i], !horizontal, i);
    qsort(others, m, sizeof(Span), by_span);
    Py_ssize_t kept = 0;
    for (Py_ssize_t r = 0; r < n; r++) {
        Span s = span_of(&rules[r], horizontal, r);
        Py_ssize_t lo = span_left(others, m, s.a0 - snap), hi = span_right(others, m, s.a1 + snap);
        int met = 0;
        for (Py_ssize_t k = lo; k < hi && met < 2; k++)
            met += others[k].a0 - snap <= s.at && s.at <= others[k].a1 + snap;
        if (met == 2) rules[kept++] = rules[r];
    }
    PyMem_Free(others);
    return kept;
}

static PyObject *box_list(const Box *boxes, Py_ssize_t n) {
    PyObject *out = PyList_New(n);
    if (out == NULL) return NULL;
    for (Py_ssize_t i = 0; i < n; i++) PyList_SET_ITEM(out, i, Py_NewRef(boxes[i].obj));
    return out;
}

PyDoc_STRVAR(grid_lines_doc,
"grid_lines(hs, vs, words, (snap, touch, tall, inset), passes)\n\n"
"tables_rules.grid_rules' loops: the horizontal and vertical rules of ``hs`` and ``vs``\n"
"that can be grid lines, as two lists; None when a coordinate is not a number (NaN): the\n"
"Python loops decide.");

static PyObject *grid_lines(PyObject *Py_UNUSED(self), PyObject *args) {
    PyObject *hs_obj, *vs_obj, *words_obj, *out = NULL;
    PyObject *hs_seq = NULL, *vs_seq = NULL, *words_seq = NULL;
    GridParams g;
    int passes;
    if (!PyArg_ParseTuple(args, "OOO(dddd)i", &hs_obj, &vs_obj, &words_obj, &g.snap, &g.touch,
                          &g.tall, &g.inset, &passes))
        return NULL;
    Box *hs = NULL, *vs = NULL, *words = NULL, *hs2 = NULL, *vs2 = NULL;
    double *heights = NULL, *tops = NULL, *points = NULL;
    const Box **near = NULL;
    Py_ssize_t nh = 0, nv = 0, nw = 0;
    int got = -1;
    hs_seq = PySequence_Fast(hs_obj, "a list of rules");
    vs_seq = hs_seq ? PySequence_Fast(vs_obj, "a list of rules") : NULL;
    words_seq = vs_seq ? PySequence_Fast(words_obj, "a list of words") : NULL;
    if (words_seq == NULL) goto done;
    got = read_boxes(hs_seq, &hs, &nh);
    if (got == 0) got = read_boxes(vs_seq, &vs, &nv);
    if (got == 0) got = read_boxes(words_seq, &words, &nw);
    if (got != 0) goto done; /* an error (-1), or NaN (1): None */
    got = -1;
    heights = PyMem_Calloc(nw ? nw : 1, sizeof(double));
    tops = PyMem_Calloc(nw ? nw : 1, sizeof(double));
    near = PyMem_Calloc(nw ? nw : 1, sizeof(Box *));
    points = PyMem_Calloc(nw ? 2 * nw : 1, sizeof(double));
    hs2 = PyMem_Calloc(nh ? nh : 1, sizeof(Box));
    vs2 = PyMem_Calloc(nv ? nv : 1, sizeof(Box));
    if (!heights || !tops || !near || !points || !hs2 || !vs2) {
        PyErr_NoMemory();
        goto done;
    }
    /* The centres before the words are sorted: _without_insets reads them in page order. */
    for (Py_ssize_t i = 0; i < nw; i++) {
        points[2 * i] = (words[i].x0 + words[i].x1) / 2; /* along a horizontal rule: x */
        points[2 * i + 1] = (words[i].y0 + words[i].y1) / 2;
    }
    nh = between_lines(hs, nh, words, nw, &g, heights, tops, near);
    if (nh < 0) goto done;
    nh = without_insets(hs, nh, 1, points, nw, &g);
    if (nh < 0) goto done;
    for (Py_ssize_t i = 0; i < nw; i++) { /* (along, across) of a vertical rule: (y, x) */
        double x = points[2 * i];
        points[2 * i] = points[2 * i + 1];
        points[2 * i + 1] = x;
    }
    nv = without_insets(vs, nv, 0, points, nw, &g);
    if (nv < 0) goto done;
    for (int pass = 0; pass < passes; pass++) {
        /* Both tests against the rules as they were at the start of the pass. */
        memcpy(hs2, hs, nh * sizeof(Box));
        memcpy(vs2, vs, nv * sizeof(Box));
        Py_ssize_t kh = meeting(hs2, nh, vs, nv, 1, g.snap);
        Py_ssize_t kv = kh < 0 ? -1 : meeting(vs2, nv, hs, nh, 0, g.snap);
        if (kv < 0) goto done;
        if (kh == nh && kv == nv) break;
        memcpy(hs, hs2, kh * sizeof(Box));
        memcpy(vs, vs2, kv * sizeof(Box));
        nh = kh;
        nv = kv;
    }
    got = 0;
done:
    if (got == 0) {
        PyObject *h = box_list(hs, nh), *v = h ? box_list(vs, nv) : NULL;
        if (v != NULL) out = PyTuple_Pack(2, h, v);
        Py_XDECREF(h);
        Py_XDECREF(v);
    }
    PyMem_Free(hs);
    PyMem_Free(vs);
    PyMem_Free(words);
    PyMem_Free(hs2);
    PyMem_Free(vs2);
    PyMem_Free(heights);
    PyMem_Free(tops);
    PyMem_Free(points);
    PyMem_Free(near);
    Py_XDECREF(hs_seq);
    Py_XDECREF(vs_seq);
    Py_XDECREF(words_seq);
    if (out == NULL && !PyErr_Occurred()) Py_RETURN_NONE;
    return out;
}

/* tables_ruled._networks: the groups of rules connected by crossings. */
static Py_ssize_t find_root(Py_ssize_t *parent, Py_ssize_t i) {
    while (parent[i] != i) {
        parent[i] = parent[parent[i]];
        i = parent[i];
    }
    return i;
}

static int by_x0(const void *a, const void *b) { /* vertical rules by x0, then as they came */
    const Box *p = a, *q = b;
    if (p->x0 != q->x0) return p->x0 < q->x0 ? -1 : 1;
    return p->at < q->at ? -1 : (p->at > q->at);
}

PyDoc_STRVAR(networks_doc,
"networks(hs, vs, snap)\n\n"
"The loop of tables_ruled._networks: the (horizontal, vertical) rule lists of each group of\n"
"rules that touch or cross, with two or more of each, in the order of their first\n"
"horizontal rule; None when a coordinate is not a number (NaN).");

static PyObject *networks(PyObject *Py_UNUSED(self), PyObject *args) {
    PyObject *hs_obj, *vs_obj, *out = NULL;
    double snap;
    if (!PyArg_ParseTuple(args, "OOd", &hs_obj, &vs_obj, &snap)) return NULL;
    PyObject *hs_seq = PySequence_Fast(hs_obj, "a list of rules");
    PyObject *vs_seq = hs_seq ? PySequence_Fast(vs_obj, "a list of rules") : NULL;
    Box *hs = NULL, *vs = NULL;
    Py_ssize_t nh = 0, nv = 0, *parent = NULL, *count_h = NULL, *count_v = NULL;
    int got = -1;
    if (vs_seq == NULL) goto done;
    got = read_boxes(hs_seq, &hs, &nh);
    if (got == 0) got = read_boxes(vs_seq, &vs, &nv);
    if (got != 0) goto done;
    got = -1;
    parent = PyMem_Calloc(nh + nv + 1, sizeof(Py_ssize_t));
    count_h = PyMem_Calloc(nh + nv + 1, sizeof(Py_ssize_t));
    count_v = PyMem_Calloc(nh + nv + 1, sizeof(Py_ssize_t));
    if (!parent || !count_h || !count_v) {
        PyErr_NoMemory();
        goto done;
    }
    for (Py_ssize_t i = 0; i < nh + nv; i++) parent[i] = i;
    Box *sorted_vs = PyMem_Calloc(nv ? nv : 1, sizeof(Box));
    if (sorted_vs == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    memcpy(sorted_vs, vs, nv * sizeof(Box));
    qsort(sorted_vs, nv, sizeof(Box), by_x0);
    for (Py_ssize_t i = 0; i < nh; i++) {
        const Box *h = &hs[i];
        Py_ssize_t lo = bisect_at(sorted_vs, sizeof(Box), offsetof(Box, x0), nv, h->x0 - snap, 0);
        Py_ssize_t hi = bisect_at(sorted_vs, sizeof(Box), offsetof(Box, x0), nv, h->x1 + snap, 1);
        for (Py_ssize_t k = lo; k < hi; k++) {
            const Box *v = &sorted_vs[k];
            if (v->y0 - snap <= h->y0 && h->y0 <= v->y1 + snap)
                parent[find_root(parent, i)] = find_root(parent, nh + v->at);
        }
    }
    PyMem_Free(sorted_vs);
    for (Py_ssize_t i = 0; i < nh; i++) count_h[find_root(parent, i)]++;
    for (Py_ssize_t k = 0; k < nv; k++) count_v[find_root(parent, nh + k)]++;
    out = PyList_New(0);
    if (out == NULL) goto done;
    /* Groups in the order of their first horizontal rule (a group of verticals alone has
     * fewer than two horizontals and is not kept). */
    for (Py_ssize_t i = 0; i < nh; i++) {
        Py_ssize_t root = find_root(parent, i);
        if (count_h[root] < 2 || count_v[root] < 2) continue;
        PyObject *h_list = PyList_New(0), *v_list = PyList_New(0), *pair = NULL;
        int bad = h_list == NULL || v_list == NULL;
        for (Py_ssize_t j = i; j < nh && !bad; j++)
            if (find_root(parent, j) == root) bad = PyList_Append(h_list, hs[j].obj) < 0;
        for (Py_ssize_t k = 0; k < nv && !bad; k++)
            if (find_root(parent, nh + k) == root) bad = PyList_Append(v_list, vs[k].obj) < 0;
        if (!bad) pair = PyTuple_Pack(2, h_list, v_list);
        Py_XDECREF(h_list);
        Py_XDECREF(v_list);
        if (pair == NULL || PyList_Append(out, pair) < 0) {
            Py_XDECREF(pair);
            Py_CLEAR(out);
            goto done;
        }
        Py_DECREF(pair);
        count_h[root] = 0; /* taken */
    }
    got = 0;
done:
    PyMem_Free(hs);
    PyMem_Free(vs);
    PyMem_Free(parent);
    PyMem_Free(count_h);
    PyMem_Free(count_v);
    Py_XDECREF(hs_seq);
    Py_XDECREF(vs_seq);
    if (out == NULL && !PyErr_Occurred()) Py_RETURN_NONE;
    return out;
}

/* ------------------------------------------- hidden text (formats/pdf/text_objects.py) */

/* The PDFium calls the text-object loops make, in text_objects._OBJECT_CALLS' order. */
#define OBJECT_CALLS 14
typedef struct {
    int (*count_objects)(Handle);
    Handle (*get_object)(Handle, int);
    int (*form_count)(Handle);
    Handle (*form_object)(Handle, unsigned long);
    int (*object_type)(Handle);
    int (*render_mode)(Handle);
    int (*bounds)(Handle, float *, float *, float *, float *);
    Handle (*clip_path)(Handle);
    int (*clip_count)(Handle);
    int (*clip_segments)(Handle, int);
    Handle (*clip_segment)(Handle, int, int);
    int (*segment_point)(Handle, float *, float *);
    Handle (*char_object)(Handle, int);
    int (*count_chars)(Handle);
    int text_kind, form_kind, max_depth, max_clip;
    double page[4], slack; /* the page box (left, bottom, right, top); _SLACK */
} Objects;

/* text_objects._intersect of two boxes, in place into a: 0 when they do not meet. */
static int intersect(double *a, const double *b) {
    double box[4] = {py_max(a[0], b[0]), py_max(a[1], b[1]), py_min(a[2], b[2]),
                     py_min(a[3], b[3])};
    if (!(box[0] <= box[2] && box[1] <= box[3])) return 0;
    memcpy(a, box, sizeof box);
    return 1;
}

/* text_objects._clip_box: 1 with the clip path's box in ``area``, 0 when the object has no
 * clip or it is not a simple shape (None). */
static int clip_box(const Objects *o, Handle obj, double *area) {
    Handle clip = o->clip_path(obj);
    if (clip == NULL) return 0;
    int got = 0, paths = o->clip_count(clip);
    for (int p = 0; p < paths; p++) {
        int segments = o->clip_segments(clip, p);
        if (segments <= 0 || segments > o->max_clip) return 0;
        double box[4];
        int points = 0;
        for (int s = 0; s < segments; s++) {
            Handle segment = o->clip_segment(clip, p, s);
            float x, y;
            if (segment == NULL || !o->segment_point(segment, &x, &y)) continue;
            if (points++ == 0) {
                box[0] = box[2] = x;
                box[1] = box[3] = y;
            } else { /* min(xs), min(ys), max(xs), max(ys) */
                box[0] = py_min(box[0], x);
                box[1] = py_min(box[1], y);
                box[2] = py_max(box[2], x);
                box[3] = py_max(box[3], y);
            }
        }
        if (points == 0) return 0;
        if (!got) {
            memcpy(area, box, sizeof box);
            got = 1;
        } else if (!intersect(area, box)) {
            area[0] = area[1] = area[2] = area[3] = 0.0; /* paths that do not meet */
            return 1;
        }
    }
    return got;
}

/* Whether an object with ``bounds`` is clipped away: its clip (on the page) misses it. */
static int clipped_away(const Objects *o, Handle obj, const float *bounds) {
    double area[4], clip[4];
    memcpy(area, o->page, sizeof area);
    if (clip_box(o, obj, clip) && !intersect(area, clip)) return 1;
    double box[4] = {bounds[0], bounds[1], bounds[2], bounds[3]};
    return !(box[0] < area[2] + o->slack && box[2] > area[0] - o->slack &&
             box[1] < area[3] + o->slack && box[3] > area[1] - o->slack); /* _overlaps */
}

static int invisible_mode(int mode) { return mode == 3 || mode == 7; } /* _INVISIBLE_MODES */

typedef struct { PyObject *hidden; long shown, invisible; } Sorted;

/* text_objects.scan_text_objects' loop over one page or form object; -1 on an error. */
static int sort_objects(const Objects *o, Handle owner, Handle form, int depth, Sorted *out) {
    int count = form == NULL ? o->count_objects(owner) : o->form_count(form);
    for (int i = 0; i < count; i++) {
        Handle obj = form == NULL ? o->get_object(owner, i)
                                  : o->form_object(form, (unsigned long)i);
        if (obj == NULL) continue;
        int kind = o->object_type(obj);
        if (kind == o->form_kind && depth < o->max_depth) {
            if (sort_objects(o, owner, obj, depth + 1, out) < 0) return -1;
            continue;
        }
        if (kind != o->text_kind) continue;
        int hide = 0;
        if (invisible_mode(o->render_mode(obj))) {
            hide = 1;
            out->invisible++;
        } else {
            float b[4];
            if (form != NULL || !o->bounds(obj, &b[0], &b[1], &b[2], &b[3])) {
                out->shown++; /* inside a form, bounds and clips are in the form's space */
                continue;
            }
            hide = clipped_away(o, obj, b);
            if (!hide) out->shown++;
        }
        if (hide) {
            PyObject *at = PyLong_FromVoidPtr(obj);
            if (at == NULL || PySet_Add(out->hidden, at) < 0) {
                Py_XDECREF(at);
                return -1;
            }
            Py_DECREF(at);
        }
    }
    return 0;
}

/* The Objects of a call: (functions, (text kind, form kind), page box, (max depth, max
 * clip segments, slack)). 0 on success. */
static int objects_of(PyObject *functions, int text_kind, int form_kind, PyObject *box,
                      int max_depth, int max_clip, double slack, Objects *o) {
    void *fn[OBJECT_CALLS];
    if (function_addresses(functions, OBJECT_CALLS, fn, "text_objects") < 0) return -1;
    o->count_objects = (int (*)(Handle))fn[0];
    o->get_object = (Handle (*)(Handle, int))fn[1];
    o->form_count = (int (*)(Handle))fn[2];
    o->form_object = (Handle (*)(Handle, unsigned long))fn[3];
    o->object_type = (int (*)(Handle))fn[4];
    o->render_mode = (int (*)(Handle))fn[5];
    o->bounds = (int (*)(Handle, float *, float *, float *, float *))fn[6];
    o->clip_path = (Handle (*)(Handle))fn[7];
    o->clip_count = (int (*)(Handle))fn[8];
    o->clip_segments = (int (*)(Handle, int))fn[9];
    o->clip_segment = (Handle (*)(Handle, int, int))fn[10];
    o->segment_point = (int (*)(Handle, float *, float *))fn[11];
    o->char_object = (Handle (*)(Handle, int))fn[12];
    o->count_chars = (int (*)(Handle))fn[13];
    o->text_kind = text_kind;
    o->form_kind = form_kind;
    o->max_depth = max_depth;
    o->max_clip = max_clip;
    o->slack = slack;
    if (!PyArg_ParseTuple(box, "dddd", &o->page[0], &o->page[1], &o->page[2], &o->page[3]))
        return -1;
    return 0;
}

PyDoc_STRVAR(text_objects_doc,
"text_objects(page, functions, (text, form), page_box, (max_depth, max_clip, slack))\n\n"
"The loop of text_objects.scan_text_objects: (the hidden text objects' addresses as a set,\n"
"how many are shown, how many of the hidden are drawn invisible).");

static PyObject *text_objects(PyObject *Py_UNUSED(self), PyObject *args) {
    PyObject *page_obj, *functions, *box;
    int text_kind, form_kind, max_depth, max_clip;
    double slack;
    if (!PyArg_ParseTuple(args, "OO(ii)O(iid)", &page_obj, &functions, &text_kind, &form_kind,
                          &box, &max_depth, &max_clip, &slack))
        return NULL;
    Objects o;
    if (objects_of(functions, text_kind, form_kind, box, max_depth, max_clip, slack, &o) < 0)
        return NULL;
    Handle page = address(page_obj);
    if (PyErr_Occurred()) return NULL;
    Sorted out = {PySet_New(NULL), 0, 0};
    if (out.hidden == NULL) return NULL;
    if (sort_objects(&o, page, NULL, 0, &out) < 0) {
        Py_DECREF(out.hidden);
        return NULL;
    }
    return Py_BuildValue("(Nll)", out.hidden, out.shown, out.invisible);
}

PyDoc_STRVAR(probe_objects_doc,
"probe_objects(textpage, functions, (text, form), page_box, (max_depth, max_clip, slack),\n"
"              (samples, clip_every))\n\n"
"The loop of text_objects.probe: (any invisible, any clipped) among ``samples`` characters\n"
"spread evenly over the text page, every ``clip_every``-th sample's clip checked.");

static PyObject *probe_objects(PyObject *Py_UNUSED(self), PyObject *args) {
    PyObject *textpage_obj, *functions, *box;
    int text_kind, form_kind, max_depth, max_clip, samples, clip_every;
    double slack;
    if (!PyArg_ParseTuple(args, "OO(ii)O(iid)(ii)", &textpage_obj, &functions, &text_kind,
                          &form_kind, &box, &max_depth, &max_clip, &slack, &samples,
                          &clip_every))
        return NULL;
    Objects o;
    if (objects_of(functions, text_kind, form_kind, box, max_depth, max_clip, slack, &o) < 0)
        return NULL;
    Handle textpage = address(textpage_obj);
    if (PyErr_Occurred()) return NULL;
    if (clip_every < 1 || samples > 64) {
        PyErr_SetString(PyExc_ValueError, "clip_every >= 1 and at most 64 samples");
        return NULL;
    }
    int count = o.count_chars(textpage);
    int invisible = 0, clipped = 0;
    if (count > 0) {
        if (samples > count) samples = count;
        Handle seen[64];
        int n_seen = 0;
        for (int k = 0; k < samples; k++) {
            int index = (int)((2 * (long long)k + 1) * count / (2 * samples));
            Handle obj = o.char_object(textpage, index);
            if (obj == NULL) continue;
            int known = 0;
            for (int s = 0; s < n_seen && !known; s++) known = seen[s] == obj;
            if (known) continue;
            seen[n_seen++] = obj;
            float b[4];
            if (invisible_mode(o.render_mode(obj)))
                invisible = 1;
            else if (!clipped && k % clip_every == 0 &&
                     o.bounds(obj, &b[0], &b[1], &b[2], &b[3]))
                clipped = clipped_away(&o, obj, b);
        }
    }
    return Py_BuildValue("(OO)", invisible ? Py_True : Py_False, clipped ? Py_True : Py_False);
}

PyDoc_STRVAR(shown_units_doc,
"shown_units(textpage, functions, count, hidden, box) -> bytes\n\n"
"The loop of hidden_text._text_without: the UTF-16-LE code units of the ``count`` characters\n"
"of the text page, less those of the ``hidden`` text objects (a set of addresses), the\n"
"space or line break PDFium put after them, characters whose box lies off the page ``box``\n"
"(left, bottom, right, top) and codes 0 or past U+FFFF. ``functions`` are the addresses of\n"
"FPDFText_GetTextObject, FPDFText_GetUnicode and FPDFText_GetCharBox.");

static PyObject *shown_units(PyObject *Py_UNUSED(self), PyObject *args) {
    PyObject *textpage_obj, *functions, *hidden;
    int count;
    double left, bottom, right, top;
    if (!PyArg_ParseTuple(args, "OOiO(dddd)", &textpage_obj, &functions, &count, &hidden, &left,
                          &bottom, &right, &top))
        return NULL;
    void *fns[3];
    if (function_addresses(functions, 3, fns, "shown_units") < 0) return NULL;
    Handle (*get_object)(Handle, int) = (Handle (*)(Handle, int))fns[0];
    unsigned (*get_unicode)(Handle, int) = (unsigned (*)(Handle, int))fns[1];
    int (*char_box)(Handle, int, double *, double *, double *, double *) =
        (int (*)(Handle, int, double *, double *, double *, double *))fns[2];
    Handle textpage = address(textpage_obj);
    if (PyErr_Occurred()) return NULL;
    if (!PyAnySet_Check(hidden)) {
        PyErr_SetString(PyExc_TypeError, "shown_units needs the hidden objects as a set");
        return NULL;
    }
    unsigned char *units = PyMem_Malloc(2 * (size_t)(count > 0 ? count : 1));
    if (units == NULL) return PyErr_NoMemory();
    Py_ssize_t n = 0;
    int after_hidden = 0;
    Handle last = NULL; /* the last object asked about, and whether it is hidden */
    int last_hidden = 0;
    for (int i = 0; i < count; i++) {
        Handle obj = get_object(textpage, i);
        if (obj != NULL) {
            if (obj != last) {
                PyObject *key = PyLong_FromVoidPtr(obj);
                if (key == NULL) goto fail;
                int found = PySet_Contains(hidden, key);
                Py_DECREF(key);
                if (found < 0) goto fail;
                last = obj;
                last_hidden = found;
            }
            if (last_hidden) {
                after_hidden = 1;
                continue;
            }
        } else if (after_hidden) {
            continue; /* the space or line break PDFium put after the hidden text */
        }
        after_hidden = 0;
        unsigned code = get_unicode(textpage, i);
        double c_left, c_right, c_bottom, c_top;
        if (obj != NULL && char_box(textpage, i, &c_left, &c_right, &c_bottom, &c_top)) {
            if (c_right < left || c_left > right || c_top < bottom || c_bottom > top) continue;
        }
        if (code > 0 && code <= 0xFFFF) {
            units[n++] = (unsigned char)(code & 0xFF);
            units[n++] = (unsigned char)(code >> 8);
        }
    }
    PyObject *out = PyBytes_FromStringAndSize((const char *)units, n);
    PyMem_Free(units);
    return out;
fail:
    PyMem_Free(units);
    return NULL;
}

/* ---------------------------------------------------------------- a page's blocks (page.py) */

/* A float attribute of ``obj`` as a double: 1 when read, 0 when it is not a float (Python
 * decides: its int arithmetic is exact past a double's), -1 on an error. */
static int float_attr(PyObject *obj, PyObject *name, double *out) {
    PyObject *v = PyObject_GetAttr(obj, name);
    if (v == NULL) return -1;
    int is_float = PyFloat_CheckExact(v);
    if (is_float) *out = PyFloat_AS_DOUBLE(v);
    Py_DECREF(v);
    return is_float;
}

#define MAX_SIZES 64

PyDoc_STRVAR(char_sizes_doc,
"char_sizes(words)\n\n"
"page._sizes' count: a dict of each size (the first word's float in that size) to the\n"
"characters set in it, sizes in the order they come. None when a size is not a float,\n"
"is not a number (NaN) or there are more than 64 sizes, or a text is not a str: the\n"
"Python loop decides.");

static PyObject *char_sizes(PyObject *Py_UNUSED(self), PyObject *words) {
    PyObject *seq = PySequence_Fast(words, "a list of words");
    if (seq == NULL) return NULL;
    double sizes[MAX_SIZES];
    PyObject *keys[MAX_SIZES];
    long long counts[MAX_SIZES];
    int distinct = 0;
    PyObject *out = NULL;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
    PyObject **items = PySequence_Fast_ITEMS(seq);
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *size = PyObject_GetAttr(items[i], s_size);
        if (size == NULL) goto done;
        if (!PyFloat_CheckExact(size) || isnan(PyFloat_AS_DOUBLE(size))) {
            Py_DECREF(size);
            goto python;
        }
        double d = PyFloat_AS_DOUBLE(size);
        PyObject *text = PyObject_GetAttr(items[i], s_text);
        if (text == NULL) {
            Py_DECREF(size);
            goto done;
        }
        int is_str = PyUnicode_Check(text);
        Py_ssize_t len = is_str ? PyUnicode_GET_LENGTH(text) : 0;
        Py_DECREF(text);
        int k = 0;
        while (k < distinct && sizes[k] != d) k++;
        if (!is_str || (k == distinct && distinct == MAX_SIZES)) {
            Py_DECREF(size);
            goto python;
        }
        if (k == distinct) {
            sizes[k] = d;
            keys[k] = size; /* the reference is kept */
            counts[k] = 0;
            distinct++;
        } else {
            Py_DECREF(size);
        }
        counts[k] += len;
    }
    out = PyDict_New();
    for (int k = 0; out != NULL && k < distinct; k++) {
        PyObject *count = PyLong_FromLongLong(counts[k]);
        if (count == NULL || PyDict_SetItem(out, keys[k], count) < 0) Py_CLEAR(out);
        Py_XDECREF(count);
    }
    goto done;
python:
    out = Py_NewRef(Py_None);
done:
    for (int k = 0; k < distinct; k++) Py_DECREF(keys[k]);
    Py_DECREF(seq);
    return out;
}

PyDoc_STRVAR(in_boxes_doc,
"in_boxes(words, boxes)\n\n"
"page._in_tables: for each word, whether its centre lies in one of ``boxes`` (objects with\n"
"x0, y0, x1, y1), as a list of bools. None when a coordinate is not a float: the Python\n"
"loop decides.");

static PyObject *in_boxes(PyObject *Py_UNUSED(self), PyObject *args) {
    PyObject *words, *boxes;
    if (!PyArg_ParseTuple(args, "OO", &words, &boxes)) return NULL;
    PyObject *wseq = PySequence_Fast(words, "a list of words");
    if (wseq == NULL) return NULL;
    PyObject *bseq = PySequence_Fast(boxes, "a list of boxes");
    if (bseq == NULL) {
        Py_DECREF(wseq);
        return NULL;
    }
    PyObject *out = NULL;
    double *box = NULL;
    Py_ssize_t nb = PySequence_Fast_GET_SIZE(bseq), nw = PySequence_Fast_GET_SIZE(wseq);
    box = PyMem_Malloc(sizeof(double) * 4 * (nb ? nb : 1));
    if (box == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    PyObject *const names[4] = {s_x0, s_y0, s_x1, s_y1};
    for (Py_ssize_t b = 0; b < nb; b++)
        for (int j = 0; j < 4; j++) {
            int got = float_attr(PySequence_Fast_GET_ITEM(bseq, b), names[j], &box[4 * b + j]);
            if (got < 0) goto done;
            if (got == 0) goto python;
        }
    out = PyList_New(nw);
    if (out == NULL) goto done;
    for (Py_ssize_t i = 0; i < nw; i++) {
        PyObject *w = PySequence_Fast_GET_ITEM(wseq, i);
        double c[4];
        for (int j = 0; j < 4; j++) {
            int got = float_attr(w, names[j], &c[j]);
            if (got < 0) goto fail;
            if (got == 0) {
                Py_CLEAR(out);
                goto python;
            }
        }
        /* The centre as Python works it out: each sum, then the half. */
        double cx = (c[0] + c[2]) * 0.5, cy = (c[1] + c[3]) * 0.5;
        int inside = 0;
        for (Py_ssize_t b = 0; b < nb && !inside; b++) {
            const double *t = &box[4 * b];
            inside = t[0] <= cx && cx <= t[2] && t[1] <= cy && cy <= t[3];
        }
        PyList_SET_ITEM(out, i, Py_NewRef(inside ? Py_True : Py_False));
    }
    goto done;
fail:
    Py_CLEAR(out);
    goto done;
python:
    out = Py_NewRef(Py_None);
done:
    PyMem_Free(box);
    Py_DECREF(wseq);
    Py_DECREF(bseq);
    return out;
}

static PyMethodDef methods[] = {
    {"upright_words", upright_words, METH_VARARGS, upright_words_doc},
    {"join_spans", join_spans, METH_VARARGS, join_spans_doc},
    {"path_pieces", path_pieces, METH_VARARGS, path_pieces_doc},
    {"group_lines", group_lines, METH_O, group_lines_doc},
    {"runs", runs, METH_VARARGS, runs_doc},
    {"bands", bands, METH_O, bands_doc},
    {"split_rows", split_rows, METH_VARARGS, split_rows_doc},
    {"gutter_votes", gutter_votes, METH_VARARGS, gutter_votes_doc},
    {"label_gap", label_gap, METH_VARARGS, label_gap_doc},
    {"angle_votes", angle_votes, METH_VARARGS, angle_votes_doc},
    {"merge_pieces", merge_pieces, METH_VARARGS, merge_pieces_doc},
    {"grid_lines", grid_lines, METH_VARARGS, grid_lines_doc},
    {"networks", networks, METH_VARARGS, networks_doc},
    {"text_objects", text_objects, METH_VARARGS, text_objects_doc},
    {"probe_objects", probe_objects, METH_VARARGS, probe_objects_doc},
    {"shown_units", shown_units, METH_VARARGS, shown_units_doc},
    {"char_sizes", char_sizes, METH_O, char_sizes_doc},
    {"in_boxes", in_boxes, METH_VARARGS, in_boxes_doc},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_loops",
    "The layout stage's hot loops, compiled (optional; see words.py, rules.py, tables_text.py,\n"
    "tables_rules.py).",
    -1, methods, NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__loops(void) {
    PyObject *builtins = PyImport_ImportModule("builtins");
    if (builtins == NULL) return NULL;
    builtin_round = PyObject_GetAttrString(builtins, "round");
    builtin_sum = PyObject_GetAttrString(builtins, "sum");
    Py_DECREF(builtins);
    if (builtin_round == NULL || builtin_sum == NULL) return NULL;
    s_x0 = PyUnicode_InternFromString("x0");
    s_y0 = PyUnicode_InternFromString("y0");
    s_x1 = PyUnicode_InternFromString("x1");
    s_y1 = PyUnicode_InternFromString("y1");
    s_size = PyUnicode_InternFromString("size");
    s_text = PyUnicode_InternFromString("text");
    s_bold = PyUnicode_InternFromString("bold");
    s_space = PyUnicode_InternFromString(" ");
    if (!s_x0 || !s_y0 || !s_x1 || !s_y1 || !s_size || !s_text || !s_bold || !s_space)
        return NULL;
    PyObject *mod = PyModule_Create(&module);
    /* WORD_LOOP 2: upright_words reads fused runs itself (words._scan) and takes its
     * (gap, back-step) instead of a callback; 3: it fits inflated boxes (words._fit_boxes). */
    if (mod != NULL && (PyModule_AddIntConstant(mod, "WORD_CALLS", WORD_CALLS) < 0 ||
                        PyModule_AddIntConstant(mod, "WORD_LOOP", 3) < 0 ||
                        /* LINE_LOOP 2: split_rows takes the gutters, not a callback. */
                        PyModule_AddIntConstant(mod, "LINE_LOOP", 2) < 0)) {
        Py_DECREF(mod);
        return NULL;
    }
    return mod;
}
