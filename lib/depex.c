/* DXE dependency expressions (PI 1.8 volume 2, 10.7): checked for shape once, then
 * evaluated against the protocol database as often as the dispatcher asks. */
#include <ember/lib/fv.h>
#include <ember/lib/str.h>

#define DEPEX_STACK 32
#define GUID_SIZE 16

/* BEFORE, AFTER: the opcode, a GUID and END, nothing else. */
static const char *check_ordering(const uint8_t *expr, size_t size, enum depex_kind *kind,
				  EFI_GUID *target)
{
	if (size != 1 + GUID_SIZE + 1 || expr[1 + GUID_SIZE] != EFI_DEP_END)
		return "BEFORE or AFTER is not alone with its GUID";
	*kind = expr[0] == EFI_DEP_BEFORE ? DEPEX_BEFORE : DEPEX_AFTER;
	mem_copy(target, expr + 1, GUID_SIZE);
	return NULL;
}

const char *depex_check(const uint8_t *expr, size_t size, enum depex_kind *kind, EFI_GUID *target)
{
	size_t at = 0;
	int depth = 0;

	*kind = DEPEX_NORMAL;
	if (size == 0)
		return "an empty expression";
	if (expr[0] == EFI_DEP_BEFORE || expr[0] == EFI_DEP_AFTER)
		return check_ordering(expr, size, kind, target);
	if (expr[0] == EFI_DEP_SOR) {
		*kind = DEPEX_SOR;
		at = 1;
	}
	for (; at < size; at++) {
		switch (expr[at]) {
		case EFI_DEP_PUSH:
			if (size - at - 1 < GUID_SIZE)
				return "a PUSH without its whole GUID";
			at += GUID_SIZE;
			/* fall through */
		case EFI_DEP_TRUE:
		case EFI_DEP_FALSE:
			if (++depth > DEPEX_STACK)
				return "the expression is too deep";
			break;
		case EFI_DEP_AND:
		case EFI_DEP_OR:
			if (depth < 2)
				return "AND or OR with fewer than two operands";
			depth--;
			break;
		case EFI_DEP_NOT:
			if (depth < 1)
				return "NOT without an operand";
			break;
		case EFI_DEP_END:
			if (at != size - 1)
				return "END before the expression's end";
			return depth == 1 ? NULL : "END with other than one value";
		case EFI_DEP_BEFORE:
		case EFI_DEP_AFTER:
		case EFI_DEP_SOR:
			return "BEFORE, AFTER or SOR inside an expression";
		default:
			return "an unknown opcode";
		}
	}
	return "no END";
}

bool depex_eval(const uint8_t *expr, size_t size, bool (*installed)(void *ctx, const EFI_GUID *),
		void *ctx)
{
	bool stack[DEPEX_STACK];
	int depth = 0;
	EFI_GUID guid;

	if (size && (expr[0] == EFI_DEP_BEFORE || expr[0] == EFI_DEP_AFTER))
		return true;
	for (size_t at = size && expr[0] == EFI_DEP_SOR ? 1 : 0; at < size; at++) {
		switch (expr[at]) {
		case EFI_DEP_PUSH:
			mem_copy(&guid, expr + at + 1, GUID_SIZE);
			stack[depth++] = installed(ctx, &guid);
			at += GUID_SIZE;
			break;
		case EFI_DEP_TRUE:
		case EFI_DEP_FALSE:
			stack[depth++] = expr[at] == EFI_DEP_TRUE;
			break;
		case EFI_DEP_AND:
			depth--;
			stack[depth - 1] = stack[depth - 1] && stack[depth];
			break;
		case EFI_DEP_OR:
			depth--;
			stack[depth - 1] = stack[depth - 1] || stack[depth];
			break;
		case EFI_DEP_NOT:
			stack[depth - 1] = !stack[depth - 1];
			break;
		default: /* END: depex_check made sure one value is left */
			return stack[0];
		}
	}
	return false;
}
