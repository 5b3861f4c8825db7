/* A recursive-descent evaluator for if conditions. */
#include "cond.h"
#include "text.h"

struct cond {
	CHAR16 *const *w;
	size_t n, pos;
	bool nocase, strings;
	const struct sh_cond_host *host;
	struct sh_cond_error *err;
};

enum op { OP_NONE, OP_EQ, OP_NE, OP_GT, OP_LT, OP_GE, OP_LE, OP_UGT, OP_ULT, OP_UGE, OP_ULE };

static const struct {
	const char *name;
	enum op op;
} op_names[] = {
    {"==", OP_EQ},   {"eq", OP_EQ},   {"ne", OP_NE},   {"gt", OP_GT},
    {"lt", OP_LT},   {"ge", OP_GE},   {"le", OP_LE},   {"ugt", OP_UGT},
    {"ult", OP_ULT}, {"uge", OP_UGE}, {"ule", OP_ULE},
};

static EFI_STATUS fail(struct cond *c, const char *what)
{
	c->err->what = what;
	c->err->word = c->pos;
	return EFI_INVALID_PARAMETER;
}

static const CHAR16 *word(const struct cond *c)
{
	return c->pos < c->n ? c->w[c->pos] : NULL;
}

static bool word_is(const struct cond *c, const char *name)
{
	const CHAR16 *w = word(c);

	return w && sh_eq_ascii(w, name);
}

static enum op op_of(const CHAR16 *w)
{
	for (size_t i = 0; w && i < ARRAY_SIZE(op_names); i++)
		if (sh_eq_ascii(w, op_names[i].name))
			return op_names[i].op;
	return OP_NONE;
}

/* "name(inner)" as one word: the inner text's bounds, or false. */
static bool call_form(const CHAR16 *w, const char *name, const CHAR16 **inner, size_t *len)
{
	size_t n = str8_len(name), wl = str16_len(w);

	if (wl < n + 2 || !sh_eqn_ascii(w, n, name) || w[n] != '(' || w[wl - 1] != ')')
		return false;
	*inner = w + n + 1;
	*len = wl - n - 2;
	return true;
}

/* An operand as a number, with the error-code functions applied; false if not numeric. */
static bool operand_number(const CHAR16 *w, bool want_signed, UINT64 *out)
{
	static const struct {
		const char *name;
		UINT64 bits;
	} funcs[] = {{"uefierror", 0x8000000000000000ULL},
		     {"pierror", 0xa000000000000000ULL},
		     {"oemerror", 0xc000000000000000ULL}};
	CHAR16 tmp[24];
	const CHAR16 *inner;
	size_t len;
	UINT64 v;

	for (size_t i = 0; i < ARRAY_SIZE(funcs); i++) {
		if (!call_form(w, funcs[i].name, &inner, &len) || len >= ARRAY_SIZE(tmp))
			continue;
		mem_copy(tmp, inner, len * sizeof(CHAR16));
		tmp[len] = 0;
		if (!sh_parse_u64(tmp, false, &v))
			return false;
		*out = v | funcs[i].bits;
		return true;
	}
	/* Signed comparisons take big unsigned numbers as their two's complement, so that
	 * status codes (0x8000...) compare with the error functions' values. */
	if (want_signed) {
		INT64 s;
		if (sh_parse_i64(w, &s)) {
			*out = (UINT64)s;
			return true;
		}
	}
	return sh_parse_u64(w, false, out);
}

static int string_order(const struct cond *c, const CHAR16 *a, const CHAR16 *b)
{
	return c->nocase ? sh_cmp_nocase(a, b) : str16_cmp(a, b);
}

static int compare(const struct cond *c, const CHAR16 *a, const CHAR16 *b, enum op op)
{
	bool is_unsigned = op >= OP_UGT;
	UINT64 x, y;

	if (c->strings || !operand_number(a, !is_unsigned, &x) ||
	    !operand_number(b, !is_unsigned, &y))
		return string_order(c, a, b);
	if (is_unsigned)
		return x < y ? -1 : x > y;
	return (INT64)x < (INT64)y ? -1 : (INT64)x > (INT64)y;
}

static bool apply(enum op op, int order)
{
	switch (op) {
	case OP_EQ:
		return order == 0;
	case OP_NE:
		return order != 0;
	case OP_GT:
	case OP_UGT:
		return order > 0;
	case OP_LT:
	case OP_ULT:
		return order < 0;
	case OP_GE:
	case OP_UGE:
		return order >= 0;
	default:
		return order <= 0;
	}
}

static EFI_STATUS expression(struct cond *c, bool *out);

static bool exists(const struct cond *c, const CHAR16 *path)
{
	return c->host && c->host->exists && c->host->exists(c->host->ctx, path);
}

/* isint(x) and exists(file) written as one word. */
static bool function(struct cond *c, bool *out)
{
	const CHAR16 *w = word(c), *inner;
	size_t len;
	CHAR16 *arg;
	INT64 ignored;

	if (!w)
		return false;
	if (call_form(w, "isint", &inner, &len) || call_form(w, "exists", &inner, &len)) {
		arg = sh_strndup16(inner, len);
		if (sh_eqn_ascii(w, 5, "isint"))
			*out = arg && sh_parse_i64(arg, &ignored);
		else
			*out = arg && exists(c, arg);
		sh_free(arg);
		c->pos++;
		return true;
	}
	return false;
}

static EFI_STATUS factor(struct cond *c, bool *out)
{
	const CHAR16 *a, *b;
	enum op op;
	EFI_STATUS status;

	if (!word(c))
		return fail(c, "the condition is incomplete");
	if (word_is(c, "not")) {
		c->pos++;
		status = factor(c, out);
		*out = !*out;
		return status;
	}
	if (word_is(c, "(")) {
		c->pos++;
		status = expression(c, out);
		if (EFI_ERROR(status))
			return status;
		if (!word_is(c, ")"))
			return fail(c, "a '(' is not closed");
		c->pos++;
		return EFI_SUCCESS;
	}
	if (word_is(c, "exist")) {
		c->pos++;
		if (!word(c))
			return fail(c, "exist needs a file name");
		*out = exists(c, word(c));
		c->pos++;
		return EFI_SUCCESS;
	}
	if (function(c, out))
		return EFI_SUCCESS;
	a = word(c);
	c->pos++;
	op = op_of(word(c));
	if (op == OP_NONE)
		return fail(c, word(c) ? "a comparison operator (== eq ne gt lt ge le ugt ult uge "
					 "ule) is expected here"
				       : "the comparison has no operator");
	c->pos++;
	b = word(c);
	if (!b)
		return fail(c, "the comparison has no right-hand operand");
	c->pos++;
	*out = apply(op, compare(c, a, b, op));
	return EFI_SUCCESS;
}

static EFI_STATUS term(struct cond *c, bool *out)
{
	EFI_STATUS status = factor(c, out);

	while (!EFI_ERROR(status) && word_is(c, "and")) {
		bool rhs = false;
		c->pos++;
		status = factor(c, &rhs);
		*out = *out && rhs;
	}
	return status;
}

static EFI_STATUS expression(struct cond *c, bool *out)
{
	EFI_STATUS status = term(c, out);

	while (!EFI_ERROR(status) && word_is(c, "or")) {
		bool rhs = false;
		c->pos++;
		status = term(c, &rhs);
		*out = *out || rhs;
	}
	return status;
}

EFI_STATUS sh_cond_eval(CHAR16 *const *words, size_t count, const struct sh_cond_host *host,
			bool *result, struct sh_cond_error *err)
{
	struct sh_cond_error dummy;
	struct cond c = {words, count, 0, false, false, host, err ? err : &dummy};
	EFI_STATUS status;

	*result = false;
	for (; word(&c) && word(&c)[0] == '/'; c.pos++) {
		if (word_is(&c, "/i"))
			c.nocase = true;
		else if (word_is(&c, "/s"))
			c.strings = true;
		else
			return fail(&c, "unknown option (only /i and /s are allowed)");
	}
	status = expression(&c, result);
	if (!EFI_ERROR(status) && word(&c))
		return fail(&c, "unexpected words after the condition");
	return status;
}
