/* Running command lines: expansion, parsing, aliases, pipes and dispatch to built-in
 * commands, mapping switches ("fs0:"), programs and scripts. */
#include "internal.h"

void sh_set_last_status(struct shell *sh, EFI_STATUS status)
{
	sh->last_status = status;
}

void sh_command_begin(struct shell *sh)
{
	sh->page_break = sh->page_session;
	sh->page_rows = 0;
	sh->interrupted = false;
}

/* "fs0:" alone switches the current file system. */
static bool is_map_switch(const CHAR16 *name)
{
	size_t n = str16_len(name);

	return n > 1 && name[n - 1] == ':' && !str16_chr(name, '\\') && !str16_chr(name, '/') &&
	       str16_chr(name, ':') == name + n - 1;
}

static EFI_STATUS switch_map(struct shell *sh, const CHAR16 *name)
{
	const struct sh_map *m = sh_map_find(sh, name);

	if (!m) {
		sh_error(sh, "%ls is not a mapping (map lists them)\n", name);
		return EFI_NOT_FOUND;
	}
	if (!m->fs) {
		sh_error(sh, "%ls is not a file system\n", name);
		return EFI_INVALID_PARAMETER;
	}
	sh->cur_map = (INTN)(m - sh->maps);
	return EFI_SUCCESS;
}

EFI_STATUS sh_run_command(struct shell *sh, UINTN argc, CHAR16 **argv)
{
	const struct sh_command *cmd;
	CHAR16 *full;
	EFI_STATUS status;

	if (!argc)
		return EFI_SUCCESS;
	sh_command_begin(sh);
	if (argc == 1 && is_map_switch(argv[0]))
		return switch_map(sh, argv[0]);
	cmd = sh_command_find(argv[0]);
	if (cmd)
		return cmd->run(sh, argc, argv);
	status = sh_find_executable(sh, argv[0], &full);
	if (EFI_ERROR(status)) {
		sh_error(sh, "'%ls' is not a command, a program or a script\n", argv[0]);
		return EFI_NOT_FOUND;
	}
	if (sh_has_extension(full, ".nsh"))
		status = sh_run_script(sh, full, argc, argv);
	else
		status = sh_run_program(sh, full, argc, argv);
	app_free(full);
	return status;
}

/* Replaces an alias in the command's first word by the words it stands for (once: an
 * alias may name a command of the same name, "alias ls "ls -r""). */
static EFI_STATUS run_aliased(struct shell *sh, UINTN argc, CHAR16 **argv)
{
	const CHAR16 *value = argc ? sh_alias_get(sh, argv[0], NULL) : NULL;
	struct sh_strv words;
	EFI_STATUS status;

	if (!value)
		return sh_run_command(sh, argc, argv);
	status = sh_split_words(value, &words, NULL);
	if (EFI_ERROR(status) || !words.count) {
		sh_strv_free(&words);
		sh_error(sh, "the alias %ls is not a command line\n", argv[0]);
		return EFI_INVALID_PARAMETER;
	}
	for (UINTN i = 1; i < argc; i++)
		sh_strv_push(&words, sh_strdup16(argv[i]));
	status = words.failed ? EFI_OUT_OF_RESOURCES : sh_run_command(sh, words.count, words.v);
	sh_strv_free(&words);
	return status;
}

static EFI_STATUS run_pipeline(struct shell *sh, struct sh_pipeline *p)
{
	struct sh_stream pipes[2];
	struct sh_stream *prev = NULL;
	EFI_STATUS status = EFI_SUCCESS;

	for (size_t i = 0; i < p->count; i++) {
		struct sh_cmd *cmd = &p->cmds[i];
		struct sh_stream *next = i + 1 < p->count ? &pipes[i % 2] : NULL;
		struct sh_redirect_state r;
		status = sh_redirect_begin(sh, cmd, &r);
		if (!EFI_ERROR(status)) {
			if (prev)
				sh->in = prev;
			if (next) {
				sh_stream_memory(next, sh);
				sh->out = next;
			}
			status = run_aliased(sh, cmd->argc, cmd->argv);
			sh_redirect_end(sh, &r);
		} else if (next) {
			sh_stream_memory(next, sh);
		}
		if (prev)
			sh_stream_close(prev);
		prev = next;
		if (sh->exiting || sh->ctrl_c)
			break;
	}
	if (prev)
		sh_stream_close(prev);
	return status;
}

EFI_STATUS sh_run_expanded(struct shell *sh, const CHAR16 *line)
{
	struct sh_pipeline p;
	struct sh_parse_error err;
	EFI_STATUS status = sh_parse_line(line, &p, &err);

	if (status == EFI_INVALID_PARAMETER) {
		sh_error(sh, "syntax error: %s (column %u of: %ls)\n", err.what,
			 (unsigned)err.column + 1, line);
		sh_set_last_status(sh, status);
		return status;
	}
	if (EFI_ERROR(status)) {
		sh_error(sh, "out of memory\n");
		return status;
	}
	if (!p.count)
		return EFI_SUCCESS;
	status = run_pipeline(sh, &p);
	sh_pipeline_free(&p);
	sh_set_last_status(sh, status);
	return status;
}

EFI_STATUS sh_execute(struct shell *sh, const CHAR16 *line)
{
	struct sh_vars vars = {sh_env_lookup, sh, NULL, 0, NULL, 0};
	CHAR16 *expanded;
	EFI_STATUS status = sh_expand(line, &vars, &expanded);

	if (EFI_ERROR(status))
		return status;
	status = sh_run_expanded(sh, expanded);
	app_free(expanded);
	return status;
}
