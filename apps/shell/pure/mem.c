/* Allocation hooks, growable strings and string arrays for the pure shell code. */
#include "mem.h"

static sh_alloc_fn alloc_fn;
static sh_free_fn free_fn;

void sh_mem_use(sh_alloc_fn alloc, sh_free_fn free)
{
	alloc_fn = alloc;
	free_fn = free;
}

void *sh_alloc(size_t size)
{
	return alloc_fn ? alloc_fn(size ? size : 1) : NULL;
}

void *sh_zalloc(size_t size)
{
	void *p = sh_alloc(size);

	if (p)
		mem_set(p, 0, size);
	return p;
}

void sh_free(void *p)
{
	if (p && free_fn)
		free_fn(p);
}

CHAR16 *sh_strndup16(const CHAR16 *s, size_t n)
{
	CHAR16 *d = sh_alloc((n + 1) * sizeof(CHAR16));

	if (!d)
		return NULL;
	mem_copy(d, s, n * sizeof(CHAR16));
	d[n] = 0;
	return d;
}

CHAR16 *sh_strdup16(const CHAR16 *s)
{
	return sh_strndup16(s, str16_len(s));
}

CHAR16 *sh_strdup_ascii(const char *s)
{
	size_t n = str8_len(s);
	CHAR16 *d = sh_alloc((n + 1) * sizeof(CHAR16));

	if (!d)
		return NULL;
	for (size_t i = 0; i <= n; i++)
		d[i] = (CHAR16)(unsigned char)s[i];
	return d;
}

void sh_buf_init(struct sh_buf *b)
{
	*b = (struct sh_buf){0};
}

static bool buf_reserve(struct sh_buf *b, size_t extra)
{
	size_t need, cap;
	CHAR16 *s;

	if (b->failed)
		return false;
	if (add_overflows(b->len, extra + 1, &need))
		goto fail;
	if (need <= b->cap)
		return true;
	cap = b->cap ? b->cap : 32;
	while (cap < need)
		cap *= 2;
	s = sh_alloc(cap * sizeof(CHAR16));
	if (!s)
		goto fail;
	if (b->s)
		mem_copy(s, b->s, b->len * sizeof(CHAR16));
	sh_free(b->s);
	b->s = s;
	b->cap = cap;
	return true;
fail:
	b->failed = true;
	return false;
}

void sh_buf_put(struct sh_buf *b, const CHAR16 *s, size_t n)
{
	if (!buf_reserve(b, n))
		return;
	mem_copy(b->s + b->len, s, n * sizeof(CHAR16));
	b->len += n;
	b->s[b->len] = 0;
}

void sh_buf_putc(struct sh_buf *b, CHAR16 c)
{
	sh_buf_put(b, &c, 1);
}

void sh_buf_puts(struct sh_buf *b, const CHAR16 *s)
{
	sh_buf_put(b, s, str16_len(s));
}

void sh_buf_put_ascii(struct sh_buf *b, const char *s)
{
	for (; *s; s++)
		sh_buf_putc(b, (CHAR16)(unsigned char)*s);
}

CHAR16 *sh_buf_take(struct sh_buf *b)
{
	CHAR16 *s;

	if (!b->failed && !b->s)
		buf_reserve(b, 0);
	if (b->failed) {
		sh_buf_free(b);
		return NULL;
	}
	s = b->s;
	b->s[b->len] = 0;
	*b = (struct sh_buf){0};
	return s;
}

void sh_buf_free(struct sh_buf *b)
{
	sh_free(b->s);
	*b = (struct sh_buf){0};
}

void sh_strv_init(struct sh_strv *a)
{
	*a = (struct sh_strv){0};
}

void sh_strv_push(struct sh_strv *a, CHAR16 *s)
{
	if (!s || a->failed) {
		a->failed = true;
		sh_free(s);
		return;
	}
	if (a->count + 2 > a->cap) {
		size_t cap = a->cap ? a->cap * 2 : 8;
		CHAR16 **v = sh_alloc(cap * sizeof(*v));
		if (!v) {
			a->failed = true;
			sh_free(s);
			return;
		}
		if (a->v)
			mem_copy(v, a->v, a->count * sizeof(*v));
		sh_free(a->v);
		a->v = v;
		a->cap = cap;
	}
	a->v[a->count++] = s;
	a->v[a->count] = NULL;
}

void sh_strv_free(struct sh_strv *a)
{
	for (size_t i = 0; i < a->count; i++)
		sh_free(a->v[i]);
	sh_free(a->v);
	*a = (struct sh_strv){0};
}

void sh_strv_free_array(CHAR16 **v)
{
	if (!v)
		return;
	for (CHAR16 **p = v; *p; p++)
		sh_free(*p);
	sh_free(v);
}
