/* IFR expressions (UEFI 2.10, 33.3.8.3 and the opcode list of 33.3.8.3.1): postfix opcodes
 * over a stack, evaluated when the browser needs a condition (suppressif, grayoutif,
 * disableif, inconsistentif, nosubmitif). The reader checks each expression once; the
 * evaluator still bounds every step by the length and the stack it was given. Values are
 * unsigned 64-bit numbers (booleans 0 and 1) or undefined; strings, buffers and rules are
 * not kept, so their opcodes make an expression unknown, which never holds. */
#include <ember/core/hii_ifr.h>
#include <ember/lib/str.h>
#include "unaligned.h"

/* A value on the stack. */
struct val {
	UINT64 v;
	bool undefined;
};

#define UNDEFINED ((struct val){0, true})
#define VAL(x) ((struct val){(x), false})

/* An opcode the evaluator knows: its least length and how many values it takes. */
struct op_info {
	UINT8 op, len, pops;
};

static const struct op_info known_ops[] = {
    {EFI_IFR_TRUE_OP, 2, 0},
    {EFI_IFR_FALSE_OP, 2, 0},
    {EFI_IFR_ONE_OP, 2, 0},
    {EFI_IFR_ZERO_OP, 2, 0},
    {EFI_IFR_ONES_OP, 2, 0},
    {EFI_IFR_UNDEFINED_OP, 2, 0},
    {EFI_IFR_UINT8_OP, 3, 0},
    {EFI_IFR_UINT16_OP, 4, 0},
    {EFI_IFR_UINT32_OP, 6, 0},
    {EFI_IFR_UINT64_OP, 10, 0},
    {EFI_IFR_EQ_ID_VAL_OP, 6, 0},
    {EFI_IFR_EQ_ID_ID_OP, 6, 0},
    {EFI_IFR_EQ_ID_VAL_LIST_OP, 6, 0},
    {EFI_IFR_QUESTION_REF1_OP, 4, 0},
    {EFI_IFR_NOT_OP, 2, 1},
    {EFI_IFR_BITWISE_NOT_OP, 2, 1},
    {EFI_IFR_TO_BOOLEAN_OP, 2, 1},
    {EFI_IFR_TO_UINT_OP, 2, 1},
    {EFI_IFR_AND_OP, 2, 2},
    {EFI_IFR_OR_OP, 2, 2},
    {EFI_IFR_EQUAL_OP, 2, 2},
    {EFI_IFR_NOT_EQUAL_OP, 2, 2},
    {EFI_IFR_GREATER_THAN_OP, 2, 2},
    {EFI_IFR_GREATER_EQUAL_OP, 2, 2},
    {EFI_IFR_LESS_THAN_OP, 2, 2},
    {EFI_IFR_LESS_EQUAL_OP, 2, 2},
    {EFI_IFR_BITWISE_AND_OP, 2, 2},
    {EFI_IFR_BITWISE_OR_OP, 2, 2},
    {EFI_IFR_SHIFT_LEFT_OP, 2, 2},
    {EFI_IFR_SHIFT_RIGHT_OP, 2, 2},
    {EFI_IFR_ADD_OP, 2, 2},
    {EFI_IFR_SUBTRACT_OP, 2, 2},
    {EFI_IFR_MULTIPLY_OP, 2, 2},
    {EFI_IFR_DIVIDE_OP, 2, 2},
    {EFI_IFR_MODULO_OP, 2, 2},
    {EFI_IFR_CONDITIONAL_OP, 2, 3},
};

static const struct op_info *op_info(UINT8 op)
{
	for (size_t i = 0; i < sizeof(known_ops) / sizeof(*known_ops); i++) {
		if (known_ops[i].op == op)
			return &known_ops[i];
	}
	return NULL;
}

/* Whether an opcode is one of expressions. */
bool ifr_expr_op(UINT8 op)
{
	return (op >= EFI_IFR_EQ_ID_VAL_OP && op <= EFI_IFR_NOT_OP) ||
	       (op >= 0x20 && op <= 0x22) /* TO_LOWER, TO_UPPER, MAP */ ||
	       op == 0x28 /* VERSION */ || (op >= 0x2a && op <= 0x2e) /* MATCH .. WRITE */ ||
	       (op >= EFI_IFR_EQUAL_OP && op <= EFI_IFR_SPAN_OP) || op == EFI_IFR_SECURITY_OP ||
	       op == EFI_IFR_MATCH2_OP;
}

/* The least length of an opcode (EQ_ID_VAL_LIST: with its list). */
static size_t op_need(const struct op_info *info, const UINT8 *b, UINT8 len)
{
	if (info->op == EFI_IFR_EQ_ID_VAL_LIST_OP && len >= 6)
		return 6 + 2 * (size_t)read16(b + 4);
	return info->len;
}

/* Checks an expression. */
const char *ifr_expr_check(const UINT8 *expr, size_t len, bool *known)
{
	size_t depth = 0;

	*known = true;
	for (size_t at = 0; at < len;) {
		UINT8 n = len - at < 2 ? 0 : expr[at + 1] & EFI_IFR_LENGTH_MASK;
		const struct op_info *info = op_info(expr[at]);

		if (n < EFI_IFR_OP_HEADER_SIZE || n > len - at)
			return "expression opcode cut";
		if (!info) {
			*known = false;
			return NULL;
		}
		if (n < op_need(info, expr + at, n) || (expr[at + 1] & EFI_IFR_SCOPE))
			return "expression opcode too short or with a scope";
		if (depth < info->pops)
			return "expression takes more values than it has";
		depth = depth - info->pops + 1;
		if (depth > IFR_EXPR_STACK_MAX)
			return "expression too deep";
		at += n;
	}
	return depth == 1 ? NULL : "expression does not end with one value";
}

static struct val question(const struct ifr_expr_env *env, EFI_QUESTION_ID id)
{
	UINT64 v;

	return env->question && env->question(env->ctx, id, &v) ? VAL(v) : UNDEFINED;
}

static struct val in_list(const UINT8 *b, const struct ifr_expr_env *env)
{
	struct val q = question(env, read16(b + 2));

	for (UINT16 i = 0; !q.undefined && i < read16(b + 4); i++) {
		if (q.v == read16(b + 6 + 2 * i))
			return VAL(1);
	}
	return q.undefined ? q : VAL(0);
}

/* The opcodes that take no value: constants and question tests. */
static struct val leaf(const UINT8 *b, const struct ifr_expr_env *env)
{
	struct val q, r;
	UINT64 v = 0;

	switch (b[0]) {
	case EFI_IFR_TRUE_OP:
	case EFI_IFR_ONE_OP:
		return VAL(1);
	case EFI_IFR_ONES_OP:
		return VAL(~(UINT64)0);
	case EFI_IFR_UNDEFINED_OP:
		return UNDEFINED;
	case EFI_IFR_UINT8_OP:
		return VAL(b[2]);
	case EFI_IFR_UINT16_OP:
		return VAL(read16(b + 2));
	case EFI_IFR_UINT32_OP:
	case EFI_IFR_UINT64_OP:
		mem_copy(&v, b + 2, b[0] == EFI_IFR_UINT32_OP ? 4 : 8);
		return VAL(v);
	case EFI_IFR_QUESTION_REF1_OP:
		return question(env, read16(b + 2));
	case EFI_IFR_EQ_ID_VAL_OP:
		q = question(env, read16(b + 2));
		return q.undefined ? q : VAL(q.v == read16(b + 4));
	case EFI_IFR_EQ_ID_ID_OP:
		q = question(env, read16(b + 2));
		r = question(env, read16(b + 4));
		return q.undefined || r.undefined ? UNDEFINED : VAL(q.v == r.v);
	case EFI_IFR_EQ_ID_VAL_LIST_OP:
		return in_list(b, env);
	default:
		return VAL(0); /* FALSE, ZERO */
	}
}

static struct val unary(UINT8 op, struct val a)
{
	if (a.undefined)
		return a;
	switch (op) {
	case EFI_IFR_NOT_OP:
		return VAL(!a.v);
	case EFI_IFR_BITWISE_NOT_OP:
		return VAL(~a.v);
	case EFI_IFR_TO_BOOLEAN_OP:
		return VAL(a.v != 0);
	default:
		return a; /* TO_UINT */
	}
}

static struct val arithmetic(UINT8 op, UINT64 a, UINT64 b)
{
	switch (op) {
	case EFI_IFR_BITWISE_AND_OP:
		return VAL(a & b);
	case EFI_IFR_BITWISE_OR_OP:
		return VAL(a | b);
	case EFI_IFR_SHIFT_LEFT_OP:
		return VAL(b < 64 ? a << b : 0);
	case EFI_IFR_SHIFT_RIGHT_OP:
		return VAL(b < 64 ? a >> b : 0);
	case EFI_IFR_ADD_OP:
		return VAL(a + b);
	case EFI_IFR_SUBTRACT_OP:
		return VAL(a - b);
	case EFI_IFR_MULTIPLY_OP:
		return VAL(a * b);
	case EFI_IFR_DIVIDE_OP:
		return b ? VAL(a / b) : UNDEFINED;
	default:
		return b ? VAL(a % b) : UNDEFINED; /* MODULO */
	}
}

/* Two values: the first pushed is a, the second b ("a op b"). */
static struct val binary(UINT8 op, struct val a, struct val b)
{
	if (a.undefined || b.undefined)
		return UNDEFINED;
	switch (op) {
	case EFI_IFR_AND_OP:
		return VAL(a.v && b.v);
	case EFI_IFR_OR_OP:
		return VAL(a.v || b.v);
	case EFI_IFR_EQUAL_OP:
		return VAL(a.v == b.v);
	case EFI_IFR_NOT_EQUAL_OP:
		return VAL(a.v != b.v);
	case EFI_IFR_GREATER_THAN_OP:
		return VAL(a.v > b.v);
	case EFI_IFR_GREATER_EQUAL_OP:
		return VAL(a.v >= b.v);
	case EFI_IFR_LESS_THAN_OP:
		return VAL(a.v < b.v);
	case EFI_IFR_LESS_EQUAL_OP:
		return VAL(a.v <= b.v);
	default:
		return arithmetic(op, a.v, b.v);
	}
}

/* One opcode on the stack; false when the stack cannot take it. */
static bool apply(const UINT8 *b, const struct op_info *info, struct val *stack, size_t *depth,
		  const struct ifr_expr_env *env)
{
	struct val *top;

	if (*depth < info->pops || *depth - info->pops >= IFR_EXPR_STACK_MAX)
		return false;
	*depth -= info->pops;
	top = &stack[*depth];
	if (info->pops == 0)
		*top = leaf(b, env);
	else if (info->pops == 1)
		*top = unary(b[0], top[0]);
	else if (info->pops == 2)
		*top = binary(b[0], top[0], top[1]);
	else /* CONDITIONAL: condition ? first : second, the condition pushed first */
		*top = top[0].undefined ? UNDEFINED : top[0].v ? top[1] : top[2];
	(*depth)++;
	return true;
}

/* Evaluates an expression. */
int ifr_expr_eval(const UINT8 *expr, size_t len, const struct ifr_expr_env *env)
{
	struct val stack[IFR_EXPR_STACK_MAX];
	size_t depth = 0;

	for (size_t at = 0; at + EFI_IFR_OP_HEADER_SIZE <= len;) {
		UINT8 n = expr[at + 1] & EFI_IFR_LENGTH_MASK;
		const struct op_info *info = op_info(expr[at]);

		if (!info || n > len - at || n < op_need(info, expr + at, n) ||
		    !apply(expr + at, info, stack, &depth, env))
			return -1;
		at += n;
	}
	if (depth != 1 || stack[0].undefined)
		return -1;
	return stack[0].v != 0;
}

/* Whether a condition holds. */
bool ifr_cond_holds(const struct ifr_formset *fs, const struct ifr_cond *c,
		    const struct ifr_expr_env *env)
{
	if (!c->known || c->expr_at > fs->size || c->expr_len > fs->size - c->expr_at)
		return false;
	return ifr_expr_eval(fs->package + c->expr_at, c->expr_len, env) == 1;
}

/* Whether a condition of a kind around a statement or option holds. */
bool ifr_cond_around(const struct ifr_formset *fs, UINT16 cond, enum ifr_cond_kind kind,
		     const struct ifr_expr_env *env)
{
	/* Each parent comes before its child, so the walk ends (the reader made sure). */
	for (UINT16 i = cond; i && i <= fs->cond_count; i = fs->conds[i - 1].parent) {
		const struct ifr_cond *c = &fs->conds[i - 1];
		enum ifr_cond_kind k = c->kind == IFR_COND_DISABLE ? IFR_COND_SUPPRESS : c->kind;

		if (k == kind && ifr_cond_holds(fs, c, env))
			return true;
		if (c->parent >= i)
			break;
	}
	return false;
}
