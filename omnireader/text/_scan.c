/* Loops over a text, compiled: the language guess's two (text/language.py, language_model.py),
 * a count of a text's characters that are not whitespace (text/visible_chars.py) and the
 * chunker's test for a level that cannot split (text/chunk_split.py):
 *
 * - prose_counts: language._plain's counts. The text split at whitespace; a token holding
 *   "://", "www.", "@", a digit or ".com"/".org"/".net"/".gov"/".edu" (ending a word) set
 *   aside; in the rest, the runs of two letters or more. Python's regular expressions did it
 *   token by token, a third of a chunk's guess.
 * - feature_counts: py3langid's visit_counts. Its byte n-gram automaton walked over the
 *   sample's UTF-8 bytes, each feature the walk passes counted, in a dict whose keys come in
 *   the order the walk first met them (as Counter's): the naive Bayes sum that follows adds
 *   them in that order, so its scores are the same to the last bit.
 * - longest_gap: the longest piece of a byte string cut after each delimiter byte, the first
 *   piece aside. chonkie_core's splitters merge while either side is under min_chars, so
 *   when every later piece is under it they give the whole text back as one split: a 50 MB
 *   line's pause and space levels, found at memchr speed instead of their full passes.
 * - non_space: how many characters are not whitespace (len("".join(text.split()))), without
 *   building the pieces: a PDF page's flags and checks asked it three times a page.
 *
 * Optional, like the layout's loops: setup.py builds it where a C compiler is, and the
 * Python code runs the same loops without it. The character classes are Python's own
 * (Py_UNICODE_ISSPACE is str.split's whitespace, Py_UNICODE_ISALNUM and Py_UNICODE_ISDECIMAL
 * are the regular expressions' \w and \d); tests/test_language_scan.py checks every
 * code point against the regular expressions.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>

static inline int is_word(Py_UCS4 ch) { return Py_UNICODE_ISALNUM(ch) || ch == '_'; }

/* ASCII case folding: the only characters re.IGNORECASE matches to "w", "c", "o", "m", "r",
 * "g", "n", "e", "t", "v", "d" and "u" are their two cases (checked by the tests). */
static inline Py_UCS4 lower(Py_UCS4 ch) { return ch >= 'A' && ch <= 'Z' ? ch + 32 : ch; }

/* Whether tokens[start:end] is a URL, an address or holds a digit (language._URLISH). */
static int urlish(int kind, const void *data, Py_ssize_t start, Py_ssize_t end) {
    static const char *tlds[] = {"com", "org", "net", "gov", "edu"};
    for (Py_ssize_t i = start; i < end; i++) {
        Py_UCS4 ch = PyUnicode_READ(kind, data, i);
        if (ch == '@' || Py_UNICODE_ISDECIMAL(ch)) return 1;
        if (ch == ':' && i + 2 < end && PyUnicode_READ(kind, data, i + 1) == '/' &&
            PyUnicode_READ(kind, data, i + 2) == '/')
            return 1;
        if (lower(ch) == 'w' && i + 3 < end && lower(PyUnicode_READ(kind, data, i + 1)) == 'w' &&
            lower(PyUnicode_READ(kind, data, i + 2)) == 'w' &&
            PyUnicode_READ(kind, data, i + 3) == '.')
            return 1;
        if (ch == '.' && i + 3 < end) {
            /* \b after the three letters: the token ends, or a character that is not a
             * word character follows. */
            if (i + 4 < end && is_word(PyUnicode_READ(kind, data, i + 4))) continue;
            for (int t = 0; t < 5; t++) {
                if (lower(PyUnicode_READ(kind, data, i + 1)) == (Py_UCS4)tlds[t][0] &&
                    lower(PyUnicode_READ(kind, data, i + 2)) == (Py_UCS4)tlds[t][1] &&
                    lower(PyUnicode_READ(kind, data, i + 3)) == (Py_UCS4)tlds[t][2])
                    return 1;
            }
        }
    }
    return 0;
}

PyDoc_STRVAR(prose_counts_doc,
             "prose_counts(text) -> (words, letters, non_space)\n\n"
             "language._plain's counts: the runs of two letters or more in the tokens that are\n"
             "not URLs, addresses or numbers, their letters, and the text's characters that\n"
             "are not whitespace.");

static PyObject *prose_counts(PyObject *self, PyObject *arg) {
    if (!PyUnicode_Check(arg)) {
        PyErr_SetString(PyExc_TypeError, "prose_counts needs a str");
        return NULL;
    }
    int kind = PyUnicode_KIND(arg);
    const void *data = PyUnicode_DATA(arg);
    Py_ssize_t n = PyUnicode_GET_LENGTH(arg);
    Py_ssize_t words = 0, letters = 0, non_space = 0;
    Py_ssize_t i = 0;
    while (i < n) {
        if (Py_UNICODE_ISSPACE(PyUnicode_READ(kind, data, i))) {
            i++;
            continue;
        }
        Py_ssize_t start = i;
        while (i < n && !Py_UNICODE_ISSPACE(PyUnicode_READ(kind, data, i))) i++;
        non_space += i - start;
        if (urlish(kind, data, start, i)) continue;
        /* [^\W\d_]{2,}: a token kept holds no digit, so a letter is a word character
         * other than "_". */
        Py_ssize_t run = 0;
        for (Py_ssize_t j = start; j <= i; j++) {
            Py_UCS4 ch = j < i ? PyUnicode_READ(kind, data, j) : 0;
            if (j < i && Py_UNICODE_ISALNUM(ch) && ch != '_') {
                run++;
                continue;
            }
            if (run >= 2) {
                words++;
                letters += run;
            }
            run = 0;
        }
    }
    return Py_BuildValue("nnn", words, letters, non_space);
}

PyDoc_STRVAR(feature_counts_doc,
             "feature_counts(nextmove, rows, outputs, data) -> dict | None\n\n"
             "py3langid's visit_counts: the automaton (nextmove: uint32 transitions; rows:\n"
             "uint16, a state's row; outputs: int32, a state's feature or -1) walked over the\n"
             "bytes data; each feature's count, keys in the order first met; None when no\n"
             "feature was met.");

static PyObject *feature_counts(PyObject *self, PyObject *args) {
    Py_buffer moves, rows, outputs;
    const unsigned char *bytes;
    Py_ssize_t n;
    if (!PyArg_ParseTuple(args, "y*y*y*y#", &moves, &rows, &outputs, &bytes, &n)) return NULL;
    PyObject *counts = NULL;
    if (moves.itemsize != 4 || rows.itemsize != 2 || outputs.itemsize != 4) {
        PyErr_SetString(PyExc_ValueError, "feature_counts needs uint32, uint16 and int32 arrays");
        goto done;
    }
    const uint32_t *move = moves.buf;
    const uint16_t *row = rows.buf;
    const int32_t *out = outputs.buf;
    Py_ssize_t n_moves = moves.len / 4, n_states = rows.len / 2;
    if (n_states == 0 || outputs.len / 4 != n_states) {
        PyErr_SetString(PyExc_ValueError, "feature_counts: rows and outputs empty or unequal");
        goto done;
    }
    counts = PyDict_New();
    if (counts == NULL) goto done;
    uint32_t state = 0;
    for (Py_ssize_t i = 0; i < n; i++) {
        /* A damaged model must not read past its arrays (state is always below n_states:
         * it starts at 0 and only takes values checked here). */
        Py_ssize_t at = ((Py_ssize_t)row[state] << 8) + bytes[i];
        if (at >= n_moves || move[at] >= (uint32_t)n_states) {
            PyErr_SetString(PyExc_ValueError, "feature_counts: the automaton leaves its arrays");
            Py_CLEAR(counts);
            goto done;
        }
        state = move[at];
        int32_t feature = out[state];
        if (feature < 0) continue;
        PyObject *key = PyLong_FromLong(feature);
        if (key == NULL) {
            Py_CLEAR(counts);
            goto done;
        }
        PyObject *seen = PyDict_GetItemWithError(counts, key);
        long count = seen == NULL ? 0 : PyLong_AsLong(seen);
        PyObject *value = PyErr_Occurred() ? NULL : PyLong_FromLong(count + 1);
        int failed = value == NULL || PyDict_SetItem(counts, key, value) < 0;
        Py_DECREF(key);
        Py_XDECREF(value);
        if (failed) {
            Py_CLEAR(counts);
            goto done;
        }
    }
    if (PyDict_GET_SIZE(counts) == 0) {
        Py_DECREF(counts);
        counts = Py_NewRef(Py_None);
    }
done:
    PyBuffer_Release(&moves);
    PyBuffer_Release(&rows);
    PyBuffer_Release(&outputs);
    return counts;
}

PyDoc_STRVAR(longest_gap_doc,
             "longest_gap(data, table) -> int\n\n"
             "data cut after every byte b with table[b] != 0 (table: 256 bytes): the length of\n"
             "the longest piece but the first (the tail after the last cut included); 0 when\n"
             "there is no piece after the first.");

static PyObject *longest_gap(PyObject *self, PyObject *args) {
    Py_buffer data, table;
    if (!PyArg_ParseTuple(args, "y*y*", &data, &table)) return NULL;
    PyObject *result = NULL;
    if (table.len != 256) {
        PyErr_SetString(PyExc_ValueError, "longest_gap needs a table of 256 bytes");
        goto done;
    }
    const unsigned char *d = data.buf, *cut = table.buf;
    Py_ssize_t n = data.len, start = -1, best = 0; /* start: where the current piece began */
    for (Py_ssize_t i = 0; i < n; i++) {
        if (!cut[d[i]]) continue;
        if (start >= 0 && i + 1 - start > best) best = i + 1 - start;
        start = i + 1;
    }
    if (start >= 0 && n - start > best) best = n - start;
    result = PyLong_FromSsize_t(best);
done:
    PyBuffer_Release(&data);
    PyBuffer_Release(&table);
    return result;
}

PyDoc_STRVAR(non_space_doc,
             "non_space(text) -> int\n\n"
             "How many characters of text are not whitespace (str.split's): len(\"\".join(\n"
             "text.split())) without building the pieces.");

static PyObject *count_non_space(PyObject *self, PyObject *arg) {
    if (!PyUnicode_Check(arg)) {
        PyErr_SetString(PyExc_TypeError, "non_space() takes a str");
        return NULL;
    }
    Py_ssize_t n = PyUnicode_GET_LENGTH(arg), count = 0;
    int kind = PyUnicode_KIND(arg);
    const void *data = PyUnicode_DATA(arg);
    if (kind == PyUnicode_1BYTE_KIND) {
        const Py_UCS1 *bytes = (const Py_UCS1 *)data;
        for (Py_ssize_t i = 0; i < n; i++) count += !Py_UNICODE_ISSPACE(bytes[i]);
    } else {
        for (Py_ssize_t i = 0; i < n; i++) count += !Py_UNICODE_ISSPACE(PyUnicode_READ(kind, data, i));
    }
    return PyLong_FromSsize_t(count);
}

static PyMethodDef methods[] = {
    {"prose_counts", prose_counts, METH_O, prose_counts_doc},
    {"feature_counts", feature_counts, METH_VARARGS, feature_counts_doc},
    {"longest_gap", longest_gap, METH_VARARGS, longest_gap_doc},
    {"non_space", count_non_space, METH_O, non_space_doc},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_scan",
    "Loops over a text, compiled (optional; see language.py, visible_chars.py, chunk_split.py).",
    -1, methods, NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__scan(void) { return PyModule_Create(&module); }
