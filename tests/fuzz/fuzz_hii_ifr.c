/* Fuzzes the reading of IFR forms packages (core/hii/ifr_parse.c): the input is a forms
 * package, read into arrays of exactly as many entries as it has opcodes (so that any
 * write past what the walk counted is caught). What the reader accepts must hang together:
 * each form's statements inside the statements read, each one-of's options inside the
 * options read, each goto to a form of the set, each condition's expression inside the
 * package and evaluated without reading past it or its stack. */
#include "fuzz.h"
#include <stdlib.h>
#include <string.h>

#include <ember/core/hii_ifr.h>

/* Every question answers with its id: the evaluator walks each condition's expression. */
static bool any_value(void *ctx, EFI_QUESTION_ID id, UINT64 *value)
{
	(void)ctx;
	*value = id & 3;
	return (id & 4) == 0;
}

/* Conditions inside the package, parents before children; each one evaluated. */
static void check_conds(const struct ifr_formset *fs)
{
	struct ifr_expr_env env = {any_value, NULL};

	for (UINT16 i = 0; i < fs->cond_count; i++) {
		const struct ifr_cond *c = &fs->conds[i];

		if (c->parent > i || (size_t)c->expr_at + c->expr_len > fs->size)
			abort();
		if (c->known && ifr_expr_eval(fs->package + c->expr_at, c->expr_len, &env) > 1)
			abort();
		ifr_cond_around(fs, (UINT16)(i + 1), c->kind, &env);
	}
	for (UINT16 i = 0; i < fs->stmt_count; i++) {
		if (fs->stmts[i].cond > fs->cond_count)
			abort();
	}
}

static void check(const struct ifr_formset *fs)
{
	check_conds(fs);
	for (UINT16 i = 0; i < fs->form_count; i++) {
		if ((size_t)fs->forms[i].first + fs->forms[i].count > fs->stmt_count)
			abort();
	}
	for (UINT16 i = 0; i < fs->stmt_count; i++) {
		const struct ifr_statement *s = &fs->stmts[i];

		if ((size_t)s->first_option + s->option_count > fs->option_count && s->option_count)
			abort();
		if (s->kind == IFR_GOTO && !s->flags && !ifr_form_find(fs, s->form_id))
			abort();
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint8_t *copy = malloc(size ? size : 1);
	size_t count = ifr_opcode_count(data, size);
	struct ifr_formset fs = {.cap = count};

	if (!copy)
		return 0;
	memcpy(copy, data, size);
	fs.forms = malloc(sizeof(*fs.forms) * (count + 1));
	fs.stmts = malloc(sizeof(*fs.stmts) * (count + 1));
	fs.options = malloc(sizeof(*fs.options) * (count + 1));
	fs.stores = malloc(sizeof(*fs.stores) * (count + 1));
	fs.conds = malloc(sizeof(*fs.conds) * (count + 1));
	if (fs.forms && fs.stmts && fs.options && fs.stores && fs.conds &&
	    !ifr_parse(copy, size, NULL, &fs))
		check(&fs);
	free(fs.forms), free(fs.stmts), free(fs.options), free(fs.stores), free(fs.conds);
	free(copy);
	return 0;
}
