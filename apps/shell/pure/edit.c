/* Line editing state, history and completion cycling. */
#include "edit.h"
#include "text.h"

/* What a line holds before it ever had memory of its own: the empty text. */
static CHAR16 no_text[1];

/* Makes room for need units and a terminator; false (and e->lost) when memory ran out. */
static bool grow(struct sh_edit *e, size_t need)
{
	size_t cap = e->cap ? e->cap : 64;
	CHAR16 *text;

	if (need < e->cap)
		return true;
	while (cap <= need)
		cap *= 2;
	text = sh_alloc(cap * sizeof(CHAR16));
	if (!text) {
		e->lost = true;
		return false;
	}
	mem_copy(text, e->text, (e->len + 1) * sizeof(CHAR16));
	if (e->cap)
		sh_free(e->text);
	e->text = text;
	e->cap = cap;
	return true;
}

void sh_edit_clear(struct sh_edit *e)
{
	if (!e->cap)
		e->text = no_text;
	e->len = e->cursor = 0;
	e->text[0] = 0;
	e->lost = false;
}

void sh_edit_free(struct sh_edit *e)
{
	if (e->cap)
		sh_free(e->text);
	e->text = no_text;
	e->cap = e->len = e->cursor = 0;
}

void sh_edit_set(struct sh_edit *e, const CHAR16 *text)
{
	size_t n = str16_len(text);

	e->len = e->cursor = 0;
	e->text[0] = 0;
	if (!grow(e, n))
		return;
	mem_copy(e->text, text, (n + 1) * sizeof(CHAR16));
	e->len = e->cursor = n;
}

bool sh_edit_insert(struct sh_edit *e, CHAR16 c)
{
	if (e->overwrite && e->cursor < e->len) {
		e->text[e->cursor++] = c;
		return true;
	}
	if (!grow(e, e->len + 1))
		return false;
	mem_copy(e->text + e->cursor + 1, e->text + e->cursor,
		 (e->len - e->cursor + 1) * sizeof(CHAR16));
	e->text[e->cursor++] = c;
	e->len++;
	return true;
}

bool sh_edit_delete(struct sh_edit *e)
{
	if (e->cursor == e->len)
		return false;
	mem_copy(e->text + e->cursor, e->text + e->cursor + 1,
		 (e->len - e->cursor) * sizeof(CHAR16));
	e->len--;
	return true;
}

bool sh_edit_backspace(struct sh_edit *e)
{
	if (!e->cursor)
		return false;
	e->cursor--;
	return sh_edit_delete(e);
}

bool sh_edit_left(struct sh_edit *e)
{
	if (!e->cursor)
		return false;
	e->cursor--;
	return true;
}

bool sh_edit_right(struct sh_edit *e)
{
	if (e->cursor == e->len)
		return false;
	e->cursor++;
	return true;
}

void sh_edit_home(struct sh_edit *e)
{
	e->cursor = 0;
}

void sh_edit_end(struct sh_edit *e)
{
	e->cursor = e->len;
}

bool sh_edit_replace(struct sh_edit *e, size_t start, size_t end, const CHAR16 *s)
{
	size_t n = str16_len(s);

	if (start > end || end > e->len || !grow(e, e->len - (end - start) + n))
		return false;
	mem_copy(e->text + start + n, e->text + end, (e->len - end + 1) * sizeof(CHAR16));
	mem_copy(e->text + start, s, n * sizeof(CHAR16));
	e->len = e->len - (end - start) + n;
	e->cursor = start + n;
	return true;
}

/* Word boundaries honour quotes: the quote state is tracked from the line's start. */
void sh_edit_word(const struct sh_edit *e, size_t *start, size_t *end)
{
	bool quoted = false;
	size_t word = 0;

	for (size_t i = 0; i < e->cursor; i++) {
		CHAR16 c = e->text[i];
		if (c == '"')
			quoted = !quoted;
		else if (!quoted && (sh_is_blank(c) || c == '|' || c == '>' || c == '<'))
			word = i + 1;
	}
	*start = word;
	for (*end = e->cursor; *end < e->len; (*end)++) {
		CHAR16 c = e->text[*end];
		if (c == '"')
			quoted = !quoted;
		else if (!quoted && (sh_is_blank(c) || c == '|' || c == '>' || c == '<'))
			break;
	}
}

bool sh_edit_word_is_command(const struct sh_edit *e, size_t start)
{
	size_t i = start;

	while (i > 0 && sh_is_blank(e->text[i - 1]))
		i--;
	return i == 0 || e->text[i - 1] == '|';
}

void sh_history_add(struct sh_history *h, const CHAR16 *line)
{
	const CHAR16 *p = line;
	CHAR16 *copy;

	h->browse = h->count;
	while (sh_is_blank(*p))
		p++;
	if (!*p || (h->count && str16_cmp(h->entries[h->count - 1], line) == 0))
		return;
	copy = sh_strdup16(line);
	if (!copy)
		return;
	if (h->count == SH_HISTORY_MAX) {
		sh_free(h->entries[0]);
		mem_copy(h->entries, h->entries + 1, (SH_HISTORY_MAX - 1) * sizeof(CHAR16 *));
		h->count--;
	}
	h->entries[h->count++] = copy;
	h->browse = h->count;
}

const CHAR16 *sh_history_up(struct sh_history *h)
{
	if (!h->browse)
		return NULL;
	return h->entries[--h->browse];
}

const CHAR16 *sh_history_down(struct sh_history *h)
{
	if (h->browse >= h->count)
		return NULL;
	if (++h->browse == h->count)
		return NULL;
	return h->entries[h->browse];
}

void sh_history_free(struct sh_history *h)
{
	for (size_t i = 0; i < h->count; i++)
		sh_free(h->entries[i]);
	*h = (struct sh_history){0};
}

void sh_complete_begin(struct sh_complete *c, struct sh_strv *candidates, size_t start, size_t end)
{
	sh_complete_reset(c);
	c->candidates = *candidates;
	sh_strv_init(candidates);
	c->start = start;
	c->end = end;
	c->active = true;
}

static bool has_blank(const CHAR16 *s)
{
	for (; *s; s++)
		if (sh_is_blank(*s))
			return true;
	return false;
}

bool sh_complete_next(struct sh_complete *c, struct sh_edit *e)
{
	const CHAR16 *cand;
	struct sh_buf b;
	CHAR16 *text;
	bool ok;

	if (!c->active || !c->candidates.count)
		return false;
	cand = c->candidates.v[c->next++ % c->candidates.count];
	sh_buf_init(&b);
	if (has_blank(cand))
		sh_buf_putc(&b, '"');
	sh_buf_puts(&b, cand);
	if (has_blank(cand))
		sh_buf_putc(&b, '"');
	text = sh_buf_take(&b);
	ok = text && sh_edit_replace(e, c->start, c->end, text);
	if (ok)
		c->end = c->start + str16_len(text);
	sh_free(text);
	return ok;
}

void sh_complete_reset(struct sh_complete *c)
{
	sh_strv_free(&c->candidates);
	*c = (struct sh_complete){0};
}
