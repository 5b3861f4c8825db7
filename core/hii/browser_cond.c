/* The forms browser's conditions (UEFI 2.10, 33.3.8.3): suppressif, disableif and
 * grayoutif evaluated over the values as the user has them each time a form is drawn or a
 * key moves the selection; inconsistentif when a question changes, nosubmitif before a
 * save. An expression's questions are the session's numbers, checkboxes and one-ofs. */
#include "browser.h"
#include <ember/lib/str.h>

/* A question's value for an expression: from the varstore copy, numbers only. */
static bool question_value(void *ctx, EFI_QUESTION_ID id, UINT64 *value)
{
	const struct browser *b = ctx;

	for (UINT16 i = 0; i < b->fs.stmt_count; i++) {
		const struct ifr_statement *s = &b->fs.stmts[i];

		if (s->question_id != id)
			continue;
		if (!s->varstore_id ||
		    (s->kind != IFR_CHECKBOX && s->kind != IFR_NUMERIC && s->kind != IFR_ONE_OF))
			return false;
		*value = browser_value(b, s);
		return true;
	}
	return false;
}

static struct ifr_expr_env env_of(struct browser *b)
{
	return (struct ifr_expr_env){question_value, b};
}

/* Whether a statement is hidden. */
bool browser_hidden(struct browser *b, const struct ifr_statement *s)
{
	struct ifr_expr_env env = env_of(b);

	return ifr_cond_around(&b->fs, s->cond, IFR_COND_SUPPRESS, &env);
}

/* Whether a statement is grayed out. */
bool browser_grayed(struct browser *b, const struct ifr_statement *s)
{
	struct ifr_expr_env env = env_of(b);

	return ifr_cond_around(&b->fs, s->cond, IFR_COND_GRAY_OUT, &env);
}

/* Whether an option is hidden. */
bool browser_option_hidden(struct browser *b, const struct ifr_option *o)
{
	struct ifr_expr_env env = env_of(b);

	return ifr_cond_around(&b->fs, o->cond, IFR_COND_SUPPRESS, &env);
}

/* Whether a question's (or any question's) condition of a kind holds. */
bool browser_refused(struct browser *b, const struct ifr_statement *s, enum ifr_cond_kind kind)
{
	struct ifr_expr_env env = env_of(b);

	for (UINT16 i = 0; i < b->fs.cond_count; i++) {
		const struct ifr_cond *c = &b->fs.conds[i];

		if (c->kind != kind || (s && &b->fs.stmts[c->stmt] != s))
			continue;
		if (ifr_cond_holds(&b->fs, c, &env)) {
			browser_text(b, c->error, b->error, BROWSER_ERROR_MAX);
			return true;
		}
	}
	return false;
}

/* Saves unless a nosubmitif holds. */
EFI_STATUS browser_submit(struct browser *b)
{
	if (browser_refused(b, NULL, IFR_COND_NO_SUBMIT))
		return EFI_ACCESS_DENIED;
	return browser_save(b);
}
