/* Memory for the shell's pure logic (parser, expansion, scripts, line editor), which is
 * compiled into shell.efi and into the host's unit tests and fuzzers alike: it allocates
 * through functions that its user installs once with sh_mem_use(). A growable CHAR16
 * buffer (struct sh_buf) is built on top. */
#ifndef SHELL_PURE_MEM_H
#define SHELL_PURE_MEM_H

#include <efi/status.h>
#include <ember/lib/str.h>

typedef void *(*sh_alloc_fn)(size_t size);
typedef void (*sh_free_fn)(void *p);

/* Installs the allocator (the application's pool, or malloc on the host). */
void sh_mem_use(sh_alloc_fn alloc, sh_free_fn free);

/* NULL when out of memory (or before sh_mem_use). sh_free(NULL) does nothing. */
void *sh_alloc(size_t size);
void *sh_zalloc(size_t size);
void sh_free(void *p);

/* Copies of a string, or of its first n units; NULL when out of memory. */
CHAR16 *sh_strdup16(const CHAR16 *s);
CHAR16 *sh_strndup16(const CHAR16 *s, size_t n);
/* A CHAR16 copy of ASCII text. */
CHAR16 *sh_strdup_ascii(const char *s);

/* A growable, always terminated CHAR16 string. After a failed allocation `failed` is set
 * and further appends are ignored, so callers check once at the end. */
struct sh_buf {
	CHAR16 *s;
	size_t len, cap;
	bool failed;
};

void sh_buf_init(struct sh_buf *b);
void sh_buf_putc(struct sh_buf *b, CHAR16 c);
void sh_buf_put(struct sh_buf *b, const CHAR16 *s, size_t n);
void sh_buf_puts(struct sh_buf *b, const CHAR16 *s);
void sh_buf_put_ascii(struct sh_buf *b, const char *s);
/* Hands over the string (never NULL unless failed: then NULL and the buffer is freed). */
CHAR16 *sh_buf_take(struct sh_buf *b);
void sh_buf_free(struct sh_buf *b);

/* A growable array of owned strings, NULL-terminated (for argv-style lists). */
struct sh_strv {
	CHAR16 **v;
	size_t count, cap;
	bool failed;
};

void sh_strv_init(struct sh_strv *a);
/* Takes ownership of s (freed on failure). */
void sh_strv_push(struct sh_strv *a, CHAR16 *s);
void sh_strv_free(struct sh_strv *a);
/* Frees a NULL-terminated array of strings and the array itself. */
void sh_strv_free_array(CHAR16 **v);

#endif
