/* Running .nsh scripts: loading the file and serving the script engine (pure/engine.c)
 * with the shell's variables, files and commands. */
#include "internal.h"

#define SCRIPT_DEPTH_MAX 32

static EFI_STATUS host_run(void *ctx, struct sh_script_run *r, const CHAR16 *line)
{
	return sh_run_expanded(ctx, line);
}

static bool host_exists(void *ctx, const CHAR16 *path)
{
	EFI_FILE_PROTOCOL *f;

	if (EFI_ERROR(sh_open(ctx, path, EFI_FILE_MODE_READ, 0, &f)))
		return false;
	f->Close(f);
	return true;
}

static EFI_STATUS host_glob(void *ctx, const CHAR16 *pattern, struct sh_strv *out)
{
	struct sh_match *m;
	UINTN count;
	EFI_STATUS status = sh_glob(ctx, pattern, &m, &count);

	if (status == EFI_NOT_FOUND)
		return EFI_SUCCESS;
	if (EFI_ERROR(status))
		return status;
	/* Names keep the directory part as written: *.txt gives a.txt, fs0:\x\* fs0:\x\a. */
	for (UINTN i = 0; i < count; i++) {
		struct sh_buf b;
		sh_buf_init(&b);
		sh_buf_put(&b, pattern, sh_last_component(pattern));
		sh_buf_puts(&b, m[i].name);
		sh_strv_push(out, sh_buf_take(&b));
	}
	sh_glob_free(m, count);
	return out->failed ? EFI_OUT_OF_RESOURCES : EFI_SUCCESS;
}

/* With echo on, each line is shown after the prompt, as if typed. */
static void host_echo(void *ctx, const CHAR16 *line)
{
	struct shell *sh = ctx;
	CHAR16 *prompt;

	if (!sh->echo)
		return;
	prompt = sh_prompt(sh);
	sh_print(sh, "%ls%ls\n", prompt ? prompt : u"", line);
	app_free(prompt);
}

static void host_error(void *ctx, const struct sh_script_run *r, UINT32 line, const char *what)
{
	struct shell *sh = ctx;
	struct sh_script_run *saved = sh->script;

	/* The engine names the line itself: print without sh_error's prefix. */
	sh->script = NULL;
	sh_error(sh, "%ls line %u: %s; the script stops\n", r->script->name, (unsigned)line, what);
	sh->script = saved;
}

static bool host_interrupted(void *ctx)
{
	struct shell *sh = ctx;

	return sh->ctrl_c || sh->exiting;
}

static const struct sh_script_host script_host_template = {
    .get_env = sh_env_lookup,
    .exists = host_exists,
    .run = host_run,
    .glob = host_glob,
    .echo = host_echo,
    .error = host_error,
    .interrupted = host_interrupted,
};

static EFI_STATUS load_script(struct shell *sh, const CHAR16 *full, const CHAR16 *name,
			      struct sh_script **out)
{
	struct sh_script_error err;
	void *data;
	UINTN size;
	CHAR16 *text;
	size_t len;
	EFI_STATUS status = sh_read_file(sh, full, &data, &size);

	if (EFI_ERROR(status)) {
		sh_error(sh, "cannot read %ls: %r\n", full, status);
		return status;
	}
	status = sh_text_decode(data, size, &text, &len);
	app_free(data);
	if (EFI_ERROR(status))
		return status;
	status = sh_script_parse(name, text, len, out, &err);
	app_free(text);
	if (status == EFI_INVALID_PARAMETER) {
		struct sh_script_run *caller = sh->script;
		sh->script = NULL; /* the message names its own place */
		sh_error(sh, "%ls line %u: %s; the script does not run\n", name, (unsigned)err.line,
			 err.what);
		sh->script = caller;
	}
	return status;
}

EFI_STATUS sh_run_script(struct shell *sh, const CHAR16 *full, UINTN argc, CHAR16 **argv)
{
	struct sh_script_host host = script_host_template;
	struct sh_script_run run, *outer = sh->script;
	struct sh_script *s;
	EFI_STATUS status;

	if (sh->script_depth == SCRIPT_DEPTH_MAX) {
		sh_error(sh, "%ls: scripts are nested too deeply\n", argv[0]);
		return EFI_OUT_OF_RESOURCES;
	}
	status = load_script(sh, full, argv[0], &s);
	if (EFI_ERROR(status))
		return status;
	status = sh_script_begin(&run, s, argv, argc);
	if (!EFI_ERROR(status)) {
		host.ctx = sh;
		sh->script = &run;
		sh->script_depth++;
		status = sh_script_run(&run, &host);
		/* A script that simply ends returns what its last command returned. */
		if (!run.finished)
			status = sh->last_status;
		sh->script_depth--;
		sh->script = outer;
		sh_script_end(&run);
	}
	sh_script_free(s);
	return status;
}
