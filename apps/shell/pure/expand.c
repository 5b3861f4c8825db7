/* %variable% expansion. */
#include "expand.h"
#include "text.h"

static const CHAR16 *for_value(const struct sh_vars *v, CHAR16 letter)
{
	for (size_t i = v->for_count; i-- > 0;)
		if (v->for_vars[i].letter == letter)
			return v->for_vars[i].value;
	return NULL;
}

/* The length of a complete "%name%" reference at line[i], or 0. */
static size_t env_ref(const CHAR16 *line, size_t i)
{
	size_t end = i + 1;

	while (sh_is_name_char(line[end]))
		end++;
	return end > i + 1 && line[end] == '%' ? end + 1 - i : 0;
}

/* A loop variable %x: replaced wherever it stands (%xfile is value + "file"), unless a
 * longer "%name%" names a variable that is set. A '%' right after it that no name follows
 * belongs to it ("%x%" as in "if %x% == 2"). Returns the units used, 0 if not one. */
static size_t expand_loop_var(const CHAR16 *line, size_t i, const struct sh_vars *v,
			      struct sh_buf *b)
{
	const CHAR16 *value = line[i + 1] ? for_value(v, line[i + 1]) : NULL;
	size_t ref = env_ref(line, i);

	if (!value)
		return 0;
	if (ref > 3 && v->get_env && v->get_env(v->ctx, line + i + 1, ref - 2))
		return 0;
	sh_buf_puts(b, value);
	return line[i + 2] == '%' && !sh_is_name_char(line[i + 3]) ? 3 : 2;
}

/* Expands the reference that starts with the '%' at line[i]; returns how many units it
 * used (0: not a reference, the '%' is literal). */
static size_t expand_one(const CHAR16 *line, size_t i, const struct sh_vars *v, struct sh_buf *b)
{
	CHAR16 c = line[i + 1];
	const CHAR16 *value;
	size_t used;

	if (c >= '0' && c <= '9' && v->args) {
		size_t n = (size_t)(c - '0');
		if (n < v->argc)
			sh_buf_puts(b, v->args[n]);
		return 2;
	}
	used = expand_loop_var(line, i, v, b);
	if (used)
		return used;
	used = env_ref(line, i);
	if (!used)
		return 0;
	value = v->get_env ? v->get_env(v->ctx, line + i + 1, used - 2) : NULL;
	if (value)
		sh_buf_puts(b, value);
	return used;
}

EFI_STATUS sh_expand(const CHAR16 *line, const struct sh_vars *vars, CHAR16 **out)
{
	struct sh_buf b;
	size_t i = 0;

	sh_buf_init(&b);
	while (line[i]) {
		size_t used;
		if (line[i] == '^' && line[i + 1]) {
			sh_buf_put(&b, line + i, 2);
			i += 2;
			continue;
		}
		if (line[i] == '%' && (used = expand_one(line, i, vars, &b))) {
			i += used;
			continue;
		}
		sh_buf_putc(&b, line[i++]);
	}
	*out = sh_buf_take(&b);
	return *out ? EFI_SUCCESS : EFI_OUT_OF_RESOURCES;
}
