/* Fuzzes the shell's command-line and script parsing (apps/shell/pure): the input, as
 * UTF-8 text, goes through expansion, the pipeline parser, word splitting, if conditions
 * and the script engine with a host that runs nothing. Checks that joining split words and
 * splitting again gives the same words, and that every argv is NULL-terminated. Scripts
 * get a step budget, since goto may loop forever. The raw bytes are also what a directory
 * Read could give the tree walks (pure/walk.c): an entry that passes the check must be
 * readable within the bytes given, name included. */
#include "fuzz.h"
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../../apps/shell/pure/cond.h"
#include "../../apps/shell/pure/parse.h"
#include "../../apps/shell/pure/script.h"
#include "../../apps/shell/pure/walk.h"

#define STEP_BUDGET 2000

static size_t steps;

static const CHAR16 *get_env(void *ctx, const CHAR16 *name, size_t len)
{
	return len % 3 == 0 ? NULL : len % 3 == 1 ? u"" : u"v a|l>u^e\"%x%";
}

static bool exists(void *ctx, const CHAR16 *path)
{
	return path[0] & 1;
}

static EFI_STATUS run(void *ctx, struct sh_script_run *r, const CHAR16 *line)
{
	struct sh_pipeline p;

	if (sh_parse_line(line, &p, NULL) == EFI_SUCCESS) {
		for (size_t i = 0; i < p.count; i++) {
			if (p.cmds[i].argv[p.cmds[i].argc] != NULL)
				abort();
			if (p.cmds[i].argc == 2 && p.cmds[i].argv[0][0] == 'g')
				sh_script_goto(r, p.cmds[i].argv[1]);
			if (p.cmds[i].argc == 1 && p.cmds[i].argv[0][0] == 's')
				sh_script_shift(r);
			if (p.cmds[i].argc == 1 && p.cmds[i].argv[0][0] == 'x')
				sh_script_exit(r, 1);
		}
		sh_pipeline_free(&p);
	}
	return EFI_SUCCESS;
}

static EFI_STATUS glob(void *ctx, const CHAR16 *pattern, struct sh_strv *out)
{
	sh_strv_push(out, sh_strdup16(pattern));
	return EFI_SUCCESS;
}

static void error(void *ctx, const struct sh_script_run *r, UINT32 line, const char *what)
{
	if (!what || !line)
		abort();
}

static bool interrupted(void *ctx)
{
	return ++steps > STEP_BUDGET;
}

static void check_round_trip(const CHAR16 *line)
{
	struct sh_strv a, b;
	CHAR16 *joined;

	if (sh_split_words(line, &a, NULL) != EFI_SUCCESS)
		return;
	joined = sh_join_words(a.v, a.count);
	if (!joined || sh_split_words(joined, &b, NULL) != EFI_SUCCESS || a.count != b.count)
		abort();
	for (size_t i = 0; i < a.count; i++)
		if (str16_cmp(a.v[i], b.v[i]) != 0)
			abort();
	if (a.count) {
		bool result;
		sh_cond_eval(a.v, a.count, &(struct sh_cond_host){exists, NULL}, &result, NULL);
	}
	sh_free(joined);
	sh_strv_free(&a);
	sh_strv_free(&b);
}

static void run_script(const CHAR16 *text, size_t len)
{
	struct sh_script_host host = {NULL, get_env, exists, run, glob, NULL, error, interrupted};
	CHAR16 *argv[] = {(CHAR16 *)u"f.nsh", (CHAR16 *)u"a b", (CHAR16 *)u""};
	struct sh_script *s;
	struct sh_script_run r;

	if (sh_script_parse(u"f.nsh", text, len, &s, NULL) != EFI_SUCCESS)
		return;
	steps = 0;
	if (sh_script_begin(&r, s, argv, 3) == EFI_SUCCESS) {
		sh_script_run(&r, &host);
		sh_script_end(&r);
	}
	sh_script_free(s);
}

/* The bytes as one directory entry, in a buffer of exactly their size. */
static void check_entry(const uint8_t *data, size_t size)
{
	void *copy = malloc(size ? size : 1);
	const EFI_FILE_INFO *info = copy;

	memcpy(copy, data, size);
	if (sh_file_info_valid(copy, size)) {
		sh_walk_print_entry(SH_WALK_PRINT_INIT, info);
		if (sh_walk_name_ok(info->FileName) &&
		    sh_walk_path_up(info->FileName, size) > str16_len(info->FileName))
			abort();
	}
	free(copy);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	sh_mem_use(malloc, free);
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	CHAR16 *text = malloc((size + 1) * sizeof(CHAR16)), *expanded;
	size_t len = utf8_to_ucs2(text, size + 1, (const char *)data, size);
	struct sh_vars vars = {get_env, NULL, NULL, 0, NULL, 0};
	struct sh_pipeline p;

	/* One line for the line parsers (up to the first line end). */
	for (size_t i = 0; i <= len; i++)
		if (text[i] == '\n' || text[i] == '\r' || !text[i]) {
			CHAR16 keep = text[i];
			text[i] = 0;
			if (sh_expand(text, &vars, &expanded) == EFI_SUCCESS) {
				if (sh_parse_line(expanded, &p, NULL) == EFI_SUCCESS)
					sh_pipeline_free(&p);
				check_round_trip(expanded);
				sh_free(expanded);
			}
			text[i] = keep;
			break;
		}
	run_script(text, len);
	free(text);
	check_entry(data, size);
	return 0;
}
