/* The script engine: walks the lines of a parsed script, runs if/else/endif and
 * for/endfor itself and hands every other line, expanded, to the host. */
#include "cond.h"
#include "parse.h"
#include "script.h"
#include "text.h"
#include "wild.h"

EFI_STATUS sh_script_begin(struct sh_script_run *r, const struct sh_script *s, CHAR16 *const *argv,
			   size_t argc)
{
	*r = (struct sh_script_run){.script = s};
	sh_strv_init(&r->args);
	for (size_t i = 0; i < argc; i++)
		sh_strv_push(&r->args, sh_strdup16(argv[i]));
	if (r->args.failed) {
		sh_strv_free(&r->args);
		return EFI_OUT_OF_RESOURCES;
	}
	return EFI_SUCCESS;
}

static void loop_pop(struct sh_script_run *r)
{
	sh_strv_free(&r->loops[--r->depth].values);
}

void sh_script_end(struct sh_script_run *r)
{
	while (r->depth)
		loop_pop(r);
	sh_strv_free(&r->args);
}

void sh_script_vars(struct sh_script_run *r, const struct sh_script_host *host,
		    struct sh_for_var *storage, struct sh_vars *vars)
{
	for (size_t i = 0; i < r->depth; i++)
		storage[i] = (struct sh_for_var){r->loops[i].letter, r->loops[i].current};
	*vars =
	    (struct sh_vars){host->get_env, host->ctx, r->args.v, r->args.count, storage, r->depth};
}

static EFI_STATUS expand_line(struct sh_script_run *r, const struct sh_script_host *host,
			      const CHAR16 *text, CHAR16 **out)
{
	struct sh_for_var storage[SH_LOOP_MAX];
	struct sh_vars vars;

	sh_script_vars(r, host, storage, &vars);
	return sh_expand(text, &vars, out);
}

/* Stops the script at its current line with a message. */
static void stop(struct sh_script_run *r, const struct sh_script_host *host, const char *what,
		 EFI_STATUS status)
{
	host->error(host->ctx, r, r->script->lines[r->pc].number, what);
	r->finished = true;
	r->status = status;
}

/* Expands a line and splits it into words. */
static EFI_STATUS line_words(struct sh_script_run *r, const struct sh_script_host *host,
			     struct sh_strv *words)
{
	struct sh_parse_error perr;
	CHAR16 *line;
	EFI_STATUS status = expand_line(r, host, r->script->lines[r->pc].text, &line);

	if (EFI_ERROR(status)) {
		stop(r, host, "out of memory", status);
		return status;
	}
	status = sh_split_words(line, words, &perr);
	sh_free(line);
	if (EFI_ERROR(status))
		stop(r, host, status == EFI_INVALID_PARAMETER ? perr.what : "out of memory",
		     status);
	return status;
}

static void run_if(struct sh_script_run *r, const struct sh_script_host *host)
{
	const struct sh_script_line *l = &r->script->lines[r->pc];
	struct sh_cond_host ch = {host->exists, host->ctx};
	struct sh_cond_error cerr;
	struct sh_strv w;
	size_t n;
	bool result;

	if (EFI_ERROR(line_words(r, host, &w)))
		return;
	n = w.count;
	if (n > 1 && sh_eq_ascii(w.v[n - 1], "then"))
		n--;
	if (EFI_ERROR(sh_cond_eval(w.v + 1, n - 1, &ch, &result, &cerr))) {
		stop(r, host, cerr.what, EFI_INVALID_PARAMETER);
	} else if (!result) {
		/* Continue after the else (or the endif): the loop steps past match. */
		r->pc = l->match;
	}
	sh_strv_free(&w);
}

static void int_text(CHAR16 *out, INT64 v)
{
	CHAR16 digits[24];
	UINT64 u = v < 0 ? 0 - (UINT64)v : (UINT64)v;
	size_t n = 0;

	do {
		digits[n++] = (CHAR16)('0' + u % 10);
		u /= 10;
	} while (u);
	if (v < 0)
		*out++ = '-';
	while (n)
		*out++ = digits[--n];
	*out = 0;
}

/* Sets the loop variable to the next value; false when the loop is done. */
static bool loop_advance(struct sh_loop *loop)
{
	if (!loop->counting) {
		if (loop->next >= loop->values.count)
			return false;
		loop->current = loop->values.v[loop->next++];
		return true;
	}
	if (loop->next || (loop->step > 0 ? loop->value > loop->end : loop->value < loop->end))
		return false;
	int_text(loop->text, loop->value);
	loop->current = loop->text;
	/* Past the end of the number range: this value is the last one. */
	if (add_overflows(loop->value, loop->step, &loop->value))
		loop->next = 1;
	return true;
}

/* The "run" form: (start end [step]), parentheses written apart or attached. */
static const char *loop_range(struct sh_loop *loop, CHAR16 *const *w, size_t n)
{
	INT64 num[3];
	size_t count = 0;

	for (size_t i = 0; i < n; i++) {
		CHAR16 *t = w[i];
		size_t len = str16_len(t);
		if (*t == '(' && i == 0)
			t++, len--;
		if (len && t[len - 1] == ')' && i == n - 1)
			len--;
		if (!len)
			continue;
		CHAR16 *copy = sh_strndup16(t, len);
		bool ok = copy && count < 3 && sh_parse_i64(copy, &num[count]);
		sh_free(copy);
		if (!ok)
			return "for ... run needs (start end [step]) with numbers";
		count++;
	}
	if (count < 2)
		return "for ... run needs (start end [step]) with numbers";
	loop->counting = true;
	loop->value = num[0];
	loop->end = num[1];
	loop->step = count == 3 ? num[2] : num[0] <= num[1] ? 1 : -1;
	return loop->step ? NULL : "the step of a for loop cannot be 0";
}

/* The "in" form: words with wildcards stand for the matching file names. */
static const char *loop_values(struct sh_loop *loop, const struct sh_script_host *host,
			       CHAR16 *const *w, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		if (sh_has_wildcards(w[i]) && host->glob) {
			if (EFI_ERROR(host->glob(host->ctx, w[i], &loop->values)))
				loop->values.failed = true;
		} else {
			sh_strv_push(&loop->values, sh_strdup16(w[i]));
		}
	}
	return loop->values.failed ? "out of memory" : NULL;
}

static const char *loop_setup(struct sh_loop *loop, const struct sh_script_host *host,
			      const struct sh_strv *w)
{
	const CHAR16 *var = w->count > 1 ? w->v[1] : NULL;

	if (!var || var[0] != '%' || !var[1] || var[2] || !sh_is_name_char(var[1]) ||
	    (var[1] >= '0' && var[1] <= '9'))
		return "for needs a variable: for %a in ... or for %a run (1 10)";
	loop->letter = var[1];
	if (w->count > 2 && sh_eq_ascii(w->v[2], "in"))
		return loop_values(loop, host, w->v + 3, w->count - 3);
	if (w->count > 2 && sh_eq_ascii(w->v[2], "run"))
		return loop_range(loop, w->v + 3, w->count - 3);
	return "for needs 'in' or 'run' after its variable";
}

static void run_for(struct sh_script_run *r, const struct sh_script_host *host)
{
	const struct sh_script_line *l = &r->script->lines[r->pc];
	struct sh_loop *loop;
	struct sh_strv w;
	const char *problem;

	if (r->depth == SH_LOOP_MAX) {
		stop(r, host, "for loops are nested too deeply", EFI_OUT_OF_RESOURCES);
		return;
	}
	if (EFI_ERROR(line_words(r, host, &w)))
		return;
	loop = &r->loops[r->depth++];
	*loop = (struct sh_loop){.for_line = r->pc};
	sh_strv_init(&loop->values);
	problem = loop_setup(loop, host, &w);
	sh_strv_free(&w);
	if (problem) {
		loop_pop(r);
		stop(r, host, problem, EFI_INVALID_PARAMETER);
	} else if (!loop_advance(loop)) {
		loop_pop(r);
		r->pc = l->match;
	}
}

static void run_endfor(struct sh_script_run *r, const struct sh_script_host *host)
{
	const struct sh_script_line *l = &r->script->lines[r->pc];
	struct sh_loop *loop = r->depth ? &r->loops[r->depth - 1] : NULL;

	if (!loop || loop->for_line != l->match) {
		stop(r, host, "endfor without a running for (a goto jumped into the loop?)",
		     EFI_INVALID_PARAMETER);
		return;
	}
	if (loop_advance(loop))
		r->pc = loop->for_line;
	else
		loop_pop(r);
}

static void run_command(struct sh_script_run *r, const struct sh_script_host *host)
{
	CHAR16 *line;
	EFI_STATUS status = expand_line(r, host, r->script->lines[r->pc].text, &line);

	if (EFI_ERROR(status)) {
		stop(r, host, "out of memory", status);
		return;
	}
	host->run(host->ctx, r, line);
	sh_free(line);
}

static void run_line(struct sh_script_run *r, const struct sh_script_host *host)
{
	const struct sh_script_line *l = &r->script->lines[r->pc];

	if (l->kind == SH_LINE_BLANK || l->kind == SH_LINE_LABEL)
		return;
	if (!l->quiet && host->echo)
		host->echo(host->ctx, l->text);
	switch (l->kind) {
	case SH_LINE_IF:
		run_if(r, host);
		break;
	case SH_LINE_ELSE:
		/* Reached by running the true branch: skip the false one. */
		r->pc = l->match;
		break;
	case SH_LINE_FOR:
		run_for(r, host);
		break;
	case SH_LINE_ENDFOR:
		run_endfor(r, host);
		break;
	case SH_LINE_COMMAND:
		run_command(r, host);
		break;
	}
}

EFI_STATUS sh_script_run(struct sh_script_run *r, const struct sh_script_host *host)
{
	while (!r->finished && r->pc < r->script->count) {
		if (host->interrupted && host->interrupted(host->ctx)) {
			stop(r, host, "interrupted", EFI_ABORTED);
			break;
		}
		r->jumped = false;
		run_line(r, host);
		if (!r->jumped)
			r->pc++;
	}
	return r->status;
}

EFI_STATUS sh_script_goto(struct sh_script_run *r, const CHAR16 *label)
{
	size_t target;

	if (!sh_script_find_label(r->script, label, r->pc + 1, &target))
		return EFI_NOT_FOUND;
	/* Leave the loops whose lines do not hold the label. */
	while (r->depth) {
		const struct sh_loop *loop = &r->loops[r->depth - 1];
		size_t end = r->script->lines[loop->for_line].match;
		if (target > loop->for_line && target < end)
			break;
		loop_pop(r);
	}
	r->pc = target;
	r->jumped = true;
	return EFI_SUCCESS;
}

void sh_script_shift(struct sh_script_run *r)
{
	if (r->args.count < 2)
		return;
	sh_free(r->args.v[1]);
	mem_copy(&r->args.v[1], &r->args.v[2], (r->args.count - 1) * sizeof(CHAR16 *));
	r->args.count--;
}

void sh_script_exit(struct sh_script_run *r, EFI_STATUS status)
{
	r->finished = true;
	r->status = status;
}
