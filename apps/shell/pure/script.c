/* Script loading: lines, their kinds and the pairing of if/else/endif and for/endfor. */
#include "script.h"
#include "text.h"

#define BLOCK_MAX 64

static size_t first_word_len(const CHAR16 *s)
{
	size_t n = 0;

	while (s[n] && !sh_is_blank(s[n]))
		n++;
	return n;
}

static UINT8 classify(const CHAR16 *text)
{
	static const struct {
		const char *word;
		UINT8 kind;
	} words[] = {{"if", SH_LINE_IF},
		     {"else", SH_LINE_ELSE},
		     {"endif", SH_LINE_ENDIF},
		     {"for", SH_LINE_FOR},
		     {"endfor", SH_LINE_ENDFOR}};
	size_t n = first_word_len(text);

	if (!text[0] || text[0] == '#')
		return SH_LINE_BLANK;
	if (text[0] == ':')
		return SH_LINE_LABEL;
	for (size_t i = 0; i < ARRAY_SIZE(words); i++)
		if (sh_eqn_ascii(text, n, words[i].word))
			return words[i].kind;
	return SH_LINE_COMMAND;
}

static EFI_STATUS add_line(struct sh_script *s, size_t *cap, const CHAR16 *start, size_t n,
			   UINT32 number)
{
	struct sh_script_line *l;
	bool quiet = false;

	while (n && sh_is_blank(*start)) {
		start++;
		n--;
	}
	if (n && *start == '@') {
		quiet = true;
		start++;
		n--;
		while (n && sh_is_blank(*start)) {
			start++;
			n--;
		}
	}
	while (n && sh_is_blank(start[n - 1]))
		n--;
	if (s->count == *cap) {
		size_t new_cap = *cap ? *cap * 2 : 32;
		struct sh_script_line *lines = sh_alloc(new_cap * sizeof(*lines));
		if (!lines)
			return EFI_OUT_OF_RESOURCES;
		if (s->count)
			mem_copy(lines, s->lines, s->count * sizeof(*lines));
		sh_free(s->lines);
		s->lines = lines;
		*cap = new_cap;
	}
	l = &s->lines[s->count];
	l->text = sh_strndup16(start, n);
	if (!l->text)
		return EFI_OUT_OF_RESOURCES;
	l->number = number;
	l->kind = classify(l->text);
	l->quiet = quiet;
	l->match = 0;
	s->count++;
	return EFI_SUCCESS;
}

static EFI_STATUS split_lines(struct sh_script *s, const CHAR16 *text, size_t len)
{
	size_t cap = 0, start = 0;
	UINT32 number = 1;

	for (size_t i = 0; i <= len; i++) {
		EFI_STATUS status;
		if (i < len && text[i] != '\n' && text[i] != '\r')
			continue;
		if (i == len && start == len)
			break;
		status = add_line(s, &cap, text + start, i - start, number++);
		if (EFI_ERROR(status))
			return status;
		if (i + 1 < len && text[i] == '\r' && text[i + 1] == '\n')
			i++;
		start = i + 1;
	}
	return EFI_SUCCESS;
}

static EFI_STATUS unpaired(struct sh_script_error *err, const char *what, UINT32 number)
{
	err->what = what;
	err->line = number;
	return EFI_INVALID_PARAMETER;
}

/* Pairs blocks with a stack of open if/else/for lines. */
static EFI_STATUS pair_blocks(struct sh_script *s, struct sh_script_error *err)
{
	size_t open[BLOCK_MAX], depth = 0;

	for (size_t i = 0; i < s->count; i++) {
		struct sh_script_line *l = &s->lines[i];
		struct sh_script_line *top = depth ? &s->lines[open[depth - 1]] : NULL;
		switch (l->kind) {
		case SH_LINE_IF:
		case SH_LINE_FOR:
			if (depth == BLOCK_MAX)
				return unpaired(err, "blocks are nested too deeply", l->number);
			open[depth++] = i;
			break;
		case SH_LINE_ELSE:
			if (!top || top->kind != SH_LINE_IF)
				return unpaired(err, "else without if", l->number);
			top->match = (UINT32)i;
			open[depth - 1] = i;
			break;
		case SH_LINE_ENDIF:
			if (!top || (top->kind != SH_LINE_IF && top->kind != SH_LINE_ELSE))
				return unpaired(err, "endif without if", l->number);
			top->match = (UINT32)i;
			depth--;
			break;
		case SH_LINE_ENDFOR:
			if (!top || top->kind != SH_LINE_FOR)
				return unpaired(err, "endfor without for", l->number);
			top->match = (UINT32)i;
			l->match = (UINT32)open[depth - 1];
			depth--;
			break;
		}
	}
	if (depth)
		return unpaired(err,
				s->lines[open[depth - 1]].kind == SH_LINE_FOR ? "for without endfor"
									      : "if without endif",
				s->lines[open[depth - 1]].number);
	return EFI_SUCCESS;
}

EFI_STATUS sh_script_parse(const CHAR16 *name, const CHAR16 *text, size_t len,
			   struct sh_script **out, struct sh_script_error *err)
{
	struct sh_script_error dummy;
	struct sh_script *s = sh_zalloc(sizeof(*s));
	EFI_STATUS status;

	if (!err)
		err = &dummy;
	err->what = "out of memory";
	err->line = 0;
	if (!s)
		return EFI_OUT_OF_RESOURCES;
	s->name = sh_strdup16(name);
	status = s->name ? split_lines(s, text, len) : EFI_OUT_OF_RESOURCES;
	if (!EFI_ERROR(status))
		status = pair_blocks(s, err);
	if (EFI_ERROR(status)) {
		sh_script_free(s);
		return status;
	}
	*out = s;
	return EFI_SUCCESS;
}

void sh_script_free(struct sh_script *s)
{
	if (!s)
		return;
	for (size_t i = 0; i < s->count; i++)
		sh_free(s->lines[i].text);
	sh_free(s->lines);
	sh_free(s->name);
	sh_free(s);
}

static bool is_label(const struct sh_script_line *l, const CHAR16 *label)
{
	const CHAR16 *t = l->text + 1;

	if (l->kind != SH_LINE_LABEL)
		return false;
	while (sh_is_blank(*t))
		t++;
	return sh_eqn_nocase(t, first_word_len(t), label);
}

bool sh_script_find_label(const struct sh_script *s, const CHAR16 *label, size_t from,
			  size_t *index)
{
	for (size_t k = 0; k < s->count; k++) {
		size_t i = (from + k) % s->count;
		if (is_label(&s->lines[i], label)) {
			*index = i;
			return true;
		}
	}
	return false;
}
