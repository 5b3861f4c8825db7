/* The script engine (apps/shell/pure/script.c, engine.c) with a fake shell: it records the
 * lines it is asked to run and implements goto, shift and exit /b like the real one. */
#include "../../apps/shell/pure/parse.h"
#include "../../apps/shell/pure/script.h"
#include "shell_test.h"

struct fake {
	char log[2048];
	size_t len;
	UINT32 error_line;
	const char *error;
	size_t echoed;
};

static void log_text(struct fake *f, const CHAR16 *s)
{
	for (; *s && f->len + 2 < sizeof(f->log); s++)
		f->log[f->len++] = (char)*s;
	f->log[f->len++] = '|';
	f->log[f->len] = 0;
}

static const CHAR16 *get_env(void *ctx, const CHAR16 *name, size_t len)
{
	return len == 1 && name[0] == 'v' ? u"V" : NULL;
}

static bool exists(void *ctx, const CHAR16 *path)
{
	return str16_cmp(path, u"yes") == 0;
}

/* "goto L", "shift" and "exit /b N" act on the run; everything else is logged. */
static EFI_STATUS run(void *ctx, struct sh_script_run *r, const CHAR16 *line)
{
	struct sh_strv w;

	sh_split_words(line, &w, NULL);
	if (w.count == 2 && str16_cmp(w.v[0], u"goto") == 0)
		sh_script_goto(r, w.v[1]);
	else if (w.count == 1 && str16_cmp(w.v[0], u"shift") == 0)
		sh_script_shift(r);
	else if (w.count == 3 && str16_cmp(w.v[0], u"exit") == 0)
		sh_script_exit(r, (EFI_STATUS)(w.v[2][0] - '0'));
	else
		log_text(ctx, line);
	sh_strv_free(&w);
	return EFI_SUCCESS;
}

static EFI_STATUS glob(void *ctx, const CHAR16 *pattern, struct sh_strv *out)
{
	sh_strv_push(out, sh_strdup16(u"a.txt"));
	sh_strv_push(out, sh_strdup16(u"b.txt"));
	return EFI_SUCCESS;
}

static void echo(void *ctx, const CHAR16 *line)
{
	((struct fake *)ctx)->echoed++;
}

static void error(void *ctx, const struct sh_script_run *r, UINT32 line, const char *what)
{
	((struct fake *)ctx)->error_line = line;
	((struct fake *)ctx)->error = what;
}

static struct fake f;

/* Runs text as a script with the given arguments; returns the status. */
static EFI_STATUS run_script(const CHAR16 *text, CHAR16 **argv, size_t argc)
{
	struct sh_script_host host = {&f, get_env, exists, run, glob, echo, error, NULL};
	CHAR16 *dflt[] = {(CHAR16 *)u"t.nsh"};
	struct sh_script *s;
	struct sh_script_run r;
	EFI_STATUS status;

	shell_test_init();
	f = (struct fake){0};
	status = sh_script_parse(u"t.nsh", text, str16_len(text), &s, NULL);
	if (EFI_ERROR(status))
		return status;
	sh_script_begin(&r, s, argv ? argv : dflt, argv ? argc : 1);
	status = sh_script_run(&r, &host);
	sh_script_end(&r);
	sh_script_free(s);
	return status;
}

static bool logged(const char *want)
{
	return str8_cmp(f.log, want) == 0;
}

TEST(shell_script_if_else)
{
	EXPECT_STATUS(
	    run_script(u"if a == a then\n echo 1\nelse\n echo 2\nendif\necho 3\n", NULL, 0),
	    EFI_SUCCESS);
	EXPECT(logged("echo 1|echo 3|"));
	run_script(u"if a == b\r\n echo 1\r\nelse\r\n echo 2\r\nendif\r\n", NULL, 0);
	EXPECT(logged("echo 2|"));
	run_script(u"if not exist yes then\necho 1\nendif\nif exist yes then\necho 2\nendif", NULL,
		   0);
	EXPECT(logged("echo 2|"));
	/* Nested blocks skip as a whole. */
	run_script(u"if 1 == 2\n if 1 == 1\n echo a\n else\n echo b\n endif\nelse\n"
		   u" for %x in p q\n echo %x\n endfor\nendif\n",
		   NULL, 0);
	EXPECT(logged("echo p|echo q|"));
}

TEST(shell_script_for_loops)
{
	run_script(u"for %a in x \"y z\" %v%\n echo [%a]\nendfor\n", NULL, 0);
	EXPECT(logged("echo [x]|echo [y z]|echo [V]|"));
	run_script(u"for %i run (1 3)\n for %j run (5 4)\n echo %i%j\n endfor\nendfor\n", NULL, 0);
	EXPECT(logged("echo 15|echo 14|echo 25|echo 24|echo 35|echo 34|"));
	run_script(u"for %n run ( 10 0 -5 )\necho %n\nendfor\n", NULL, 0);
	EXPECT(logged("echo 10|echo 5|echo 0|"));
	run_script(u"for %n run (1 10 20)\necho %n\nendfor\necho end\n", NULL, 0);
	EXPECT(logged("echo 1|echo end|"));
	run_script(u"for %f in *.txt\necho %f\nendfor\n", NULL, 0);
	EXPECT(logged("echo a.txt|echo b.txt|"));
	run_script(u"for %a in\necho never\nendfor\necho after\n", NULL, 0);
	EXPECT(logged("echo after|"));
}

TEST(shell_script_goto_and_labels)
{
	run_script(u"goto end\necho skipped\n:end\necho reached\n", NULL, 0);
	EXPECT(logged("echo reached|"));
	/* Backwards, and out of a loop (which then ends). */
	run_script(u"for %i run (1 3)\n echo %i\n goto out\nendfor\n:out\necho done\n", NULL, 0);
	EXPECT(logged("echo 1|echo done|"));
	run_script(u":top\necho once\nif %v% == V then\ngoto bottom\nendif\ngoto top\n:bottom\n",
		   NULL, 0);
	EXPECT(logged("echo once|"));
	run_script(u"goto missing\necho next\n", NULL, 0);
	EXPECT(logged("echo next|"));
}

TEST(shell_script_arguments_and_exit)
{
	CHAR16 *argv[] = {(CHAR16 *)u"s.nsh", (CHAR16 *)u"a", (CHAR16 *)u"b", (CHAR16 *)u"c"};

	run_script(u"echo %0 %1 %2 %3 %4\nshift\necho %0 %1 %2 %3\nshift\nshift\nshift\necho %1.\n",
		   argv, 4);
	EXPECT(logged("echo s.nsh a b c |echo s.nsh b c |echo .|"));
	EXPECT_STATUS(run_script(u"echo 1\nexit /b 5\necho 2\n", NULL, 0), 5);
	EXPECT(logged("echo 1|"));
	EXPECT_STATUS(run_script(u"for %i run (1 9)\nexit /b 3\nendfor\n", NULL, 0), 3);
}

TEST(shell_script_echo_and_quiet_lines)
{
	run_script(u"@echo -off\necho a\n# comment\n\n:label\n  @ echo b\nif a == a\nendif\n", NULL,
		   0);
	EXPECT(logged("echo -off|echo a|echo b|"));
	EXPECT_EQ(f.echoed, 3); /* "echo a", "if", "endif": not @ lines, comments or labels */
}

TEST(shell_script_structure_errors)
{
	struct sh_script *s;
	struct sh_script_error err;

	shell_test_init();
	EXPECT_STATUS(sh_script_parse(u"x", u"echo\nelse\n", 10, &s, &err), EFI_INVALID_PARAMETER);
	EXPECT_EQ(err.line, 2);
	EXPECT_STATUS(sh_script_parse(u"x", u"if a\necho\n", 10, &s, &err), EFI_INVALID_PARAMETER);
	EXPECT_EQ(err.line, 1);
	EXPECT_STATUS(sh_script_parse(u"x", u"for %a in b\nendif\n", 18, &s, &err),
		      EFI_INVALID_PARAMETER);
	EXPECT_EQ(err.line, 2);
	EXPECT_STATUS(sh_script_parse(u"x", u"endfor\n", 7, &s, &err), EFI_INVALID_PARAMETER);
	EXPECT_STATUS(sh_script_parse(u"x", u"if a\nelse\nelse\nendif", 20, &s, &err),
		      EFI_INVALID_PARAMETER);
	EXPECT_EQ(err.line, 3);
}

TEST(shell_script_runtime_errors_stop)
{
	EXPECT_STATUS(run_script(u"echo 1\nif a zz b then\necho 2\nendif\necho 3\n", NULL, 0),
		      EFI_INVALID_PARAMETER);
	EXPECT(logged("echo 1|"));
	EXPECT_EQ(f.error_line, 2);
	EXPECT_STATUS(run_script(u"for a in b\nendfor\n", NULL, 0), EFI_INVALID_PARAMETER);
	EXPECT_STATUS(run_script(u"for %a run (1 x)\nendfor\n", NULL, 0), EFI_INVALID_PARAMETER);
	EXPECT_STATUS(run_script(u"for %a run (1 5 0)\nendfor\n", NULL, 0), EFI_INVALID_PARAMETER);
	EXPECT(f.error != NULL);
	EXPECT_STATUS(run_script(u"goto in\nfor %a in x\n:in\necho %a\nendfor\n", NULL, 0),
		      EFI_INVALID_PARAMETER);
}
