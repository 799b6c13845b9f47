/* The static embedder's two loops over a batch, compiled (llm/word_tokens.py, embed_static.py):
 *
 * - word_ids: WordTokenIds' lookup. Each text split at every space, tab, line feed and
 *   carriage return (word_tokens.words_of: runs of them give empty words), each word's ids
 *   taken from the dict of words already
 *   tokenized, the first max_tokens of a text's ids kept. In Python this was split, a set of
 *   the batch's words for the new ones, then chain/islice over the ids, ~90 us an item of
 *   ~250 words, three quarters of embedding a chunk. Here the ids go into one flat int32
 *   array (with each text's count), which the pooling reads as it is. A word the dict lacks
 *   stops the ids: the set of such words comes back instead, for the caller to tokenize and
 *   ask again (the Python code learnt the same set, every word of the batch).
 * - pool: each text's sum of its tokens' rows, row = int8 codes x the row's float32 scale,
 *   summed in double and stored as float32. The numpy code summed a text's distinct tokens
 *   (times their counts) in float32 through BLAS: the two agree to float32 rounding (the
 *   tests compare them), not to the bit.
 *
 * Optional, like the text and layout loops: setup.py builds it where a C compiler is, and the
 * Python code (the same results) runs without it.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

typedef struct {
    int32_t *data;
    Py_ssize_t len, cap;
} IdBuf;

static int push(IdBuf *b, int32_t v) {
    if (b->len == b->cap) {
        Py_ssize_t cap = b->cap ? b->cap * 2 : 4096;
        int32_t *data = PyMem_Realloc(b->data, (size_t)cap * sizeof(int32_t));
        if (!data) {
            PyErr_NoMemory();
            return -1;
        }
        b->data = data;
        b->cap = cap;
    }
    b->data[b->len++] = v;
    return 0;
}

/* One word's ids appended (up to room of them); 0, or -1 with an error set. */
static int add_ids(IdBuf *b, PyObject *ids, Py_ssize_t room) {
    if (!PyList_Check(ids)) {
        PyErr_SetString(PyExc_TypeError, "word_ids: a word's ids must be a list of ints");
        return -1;
    }
    Py_ssize_t n = PyList_GET_SIZE(ids);
    if (n > room) n = room;
    for (Py_ssize_t k = 0; k < n; k++) {
        long v = PyLong_AsLong(PyList_GET_ITEM(ids, k));
        if (v == -1 && PyErr_Occurred()) return -1;
        if (v < 0 || v > INT32_MAX) {
            PyErr_SetString(PyExc_ValueError, "word_ids: a token id out of range");
            return -1;
        }
        if (push(b, (int32_t)v) < 0) return -1;
    }
    return 0;
}

PyDoc_STRVAR(word_ids_doc,
             "word_ids(texts, words, max_tokens) -> (ids, counts) or set\n\n"
             "Each text's first max_tokens ids, its words (split at every space, tab, line feed\n"
             "and carriage return) looked up in\n"
             "words (word -> list of ids): ids as int32 bytes, one text after another, and\n"
             "counts as int64 bytes, one per text. When words lacks a word of the batch, the\n"
             "set of those words instead.");

static PyObject *word_ids(PyObject *self, PyObject *args) {
    PyObject *texts, *words;
    Py_ssize_t max_tokens;
    if (!PyArg_ParseTuple(args, "O!O!n", &PyList_Type, &texts, &PyDict_Type, &words,
                          &max_tokens))
        return NULL;
    Py_ssize_t n = PyList_GET_SIZE(texts);
    IdBuf ids = {NULL, 0, 0};
    int64_t *counts = PyMem_Malloc((size_t)(n ? n : 1) * sizeof(int64_t));
    PyObject *missing = NULL, *out = NULL;
    if (!counts) return PyErr_NoMemory();
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *text = PyList_GET_ITEM(texts, i);
        if (!PyUnicode_Check(text)) {
            PyErr_SetString(PyExc_TypeError, "word_ids: texts must be str");
            goto done;
        }
        Py_ssize_t size = PyUnicode_GET_LENGTH(text), start = 0, before = ids.len;
        int kind = PyUnicode_KIND(text);
        const void *data = PyUnicode_DATA(text);
        for (Py_ssize_t j = 0; j <= size; j++) {
            if (j < size) {
                Py_UCS4 ch = PyUnicode_READ(kind, data, j);
                if (ch != ' ' && ch != '\t' && ch != '\n' && ch != '\r') continue;
            }
            PyObject *word = PyUnicode_Substring(text, start, j);
            start = j + 1;
            if (!word) goto done;
            PyObject *found = PyDict_GetItemWithError(words, word); /* borrowed */
            if (!found) {
                if (PyErr_Occurred() || (!missing && !(missing = PySet_New(NULL))) ||
                    PySet_Add(missing, word) < 0) {
                    Py_DECREF(word);
                    goto done;
                }
            } else if (!missing && ids.len - before < max_tokens &&
                       add_ids(&ids, found, max_tokens - (ids.len - before)) < 0) {
                Py_DECREF(word);
                goto done;
            }
            Py_DECREF(word);
        }
        counts[i] = ids.len - before;
    }
    if (missing) {
        out = missing;
        missing = NULL;
    } else {
        PyObject *a = PyBytes_FromStringAndSize((const char *)ids.data,
                                                ids.len * (Py_ssize_t)sizeof(int32_t));
        PyObject *b = a ? PyBytes_FromStringAndSize((const char *)counts,
                                                    n * (Py_ssize_t)sizeof(int64_t))
                        : NULL;
        if (a && b) out = PyTuple_Pack(2, a, b);
        Py_XDECREF(a);
        Py_XDECREF(b);
    }
done:
    Py_XDECREF(missing);
    PyMem_Free(ids.data);
    PyMem_Free(counts);
    return out;
}

/* acc += w * row: where the CPU has AVX2, a copy built for it runs (4 doubles a step; GCC's
 * function versions need the loader's ifunc, which x86-64 Linux has). */
#if defined(__GNUC__) && defined(__x86_64__) && defined(__linux__)
#define VERSIONS __attribute__((target_clones("avx2", "default")))
#else
#define VERSIONS
#endif

VERSIONS static void add_row(double *restrict acc,
                                                                      const int8_t *restrict row,
                                                                      double w, Py_ssize_t dim) {
    for (Py_ssize_t d = 0; d < dim; d++) acc[d] += w * row[d];
}

PyDoc_STRVAR(pool_doc,
             "pool(ids, counts, codes, scales, out)\n\n"
             "out[i] = the sum of codes[t] * scales[t] over text i's tokens t: ids int32, counts\n"
             "int64 (ids per text, in order), codes int8 (vocab x dim), scales float32 (vocab),\n"
             "out float32 (texts x dim), all C-contiguous.");

static PyObject *pool(PyObject *self, PyObject *args) {
    Py_buffer ids, counts, codes, scales, out;
    Py_ssize_t dim;
    if (!PyArg_ParseTuple(args, "y*y*y*y*w*n", &ids, &counts, &codes, &scales, &out, &dim))
        return NULL;
    PyObject *result = NULL;
    double *acc = NULL;
    int32_t *seen = NULL, *order = NULL;
    Py_ssize_t n_ids = ids.len / (Py_ssize_t)sizeof(int32_t);
    Py_ssize_t n = counts.len / (Py_ssize_t)sizeof(int64_t);
    Py_ssize_t vocab = scales.len / (Py_ssize_t)sizeof(float);
    if (dim <= 0 || codes.len != vocab * dim ||
        out.len != n * dim * (Py_ssize_t)sizeof(float)) {
        PyErr_SetString(PyExc_ValueError, "pool: the arrays' sizes do not match");
        goto done;
    }
    const int32_t *id = ids.buf;
    const int64_t *count = counts.buf;
    const int8_t *code = codes.buf;
    const float *scale = scales.buf;
    float *dst = out.buf;
    Py_ssize_t total = 0;
    for (Py_ssize_t i = 0; i < n; i++) {
        if (count[i] < 0 || count[i] > n_ids - total) {
            PyErr_SetString(PyExc_ValueError, "pool: the counts exceed the ids");
            goto done;
        }
        total += count[i];
    }
    for (Py_ssize_t k = 0; k < n_ids; k++) {
        if (id[k] < 0 || id[k] >= vocab) {
            PyErr_SetString(PyExc_ValueError, "pool: a token id outside the vocabulary");
            goto done;
        }
    }
    /* A text's distinct tokens, each with its count (a chunk repeats about half its tokens):
     * each row is read once. seen[t] is t's count in the text, zeroed again after it. */
    acc = PyMem_Malloc((size_t)dim * sizeof(double));
    seen = PyMem_Calloc((size_t)vocab, sizeof(int32_t));
    order = PyMem_Malloc((size_t)(n_ids ? n_ids : 1) * sizeof(int32_t));
    if (!acc || !seen || !order) {
        PyErr_NoMemory();
        goto done;
    }
    Py_BEGIN_ALLOW_THREADS
    Py_ssize_t k = 0;
    for (Py_ssize_t i = 0; i < n; i++) {
        Py_ssize_t distinct = 0;
        for (int64_t c = 0; c < count[i]; c++, k++) {
            if (!seen[id[k]]++) order[distinct++] = id[k];
        }
        memset(acc, 0, (size_t)dim * sizeof(double));
        for (Py_ssize_t j = 0; j < distinct; j++) {
            int32_t t = order[j];
            add_row(acc, code + (Py_ssize_t)t * dim, (double)seen[t] * scale[t], dim);
            seen[t] = 0;
        }
        for (Py_ssize_t d = 0; d < dim; d++) dst[i * dim + d] = (float)acc[d];
    }
    Py_END_ALLOW_THREADS
    result = Py_None;
    Py_INCREF(result);
done:
    PyMem_Free(acc);
    PyMem_Free(seen);
    PyMem_Free(order);
    PyBuffer_Release(&ids);
    PyBuffer_Release(&counts);
    PyBuffer_Release(&codes);
    PyBuffer_Release(&scales);
    PyBuffer_Release(&out);
    return result;
}

static PyMethodDef methods[] = {
    {"word_ids", word_ids, METH_VARARGS, word_ids_doc},
    {"pool", pool, METH_VARARGS, pool_doc},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_embed_loops",
    "The static embedder's loops over a batch, compiled (optional; see word_tokens.py).",
    -1, methods, NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__embed_loops(void) { return PyModule_Create(&module); }
