/* Tokenizer and pipeline builder for command lines (see parse.h for the grammar). */
#include "parse.h"
#include "text.h"

struct lexer {
	const CHAR16 *line;
	size_t pos;
	bool operators; /* | < > are operators (false for plain word splitting) */
	struct sh_parse_error *err;
};

static EFI_STATUS fail(struct lexer *lx, const char *what, size_t column)
{
	lx->err->what = what;
	lx->err->column = column;
	return EFI_INVALID_PARAMETER;
}

static CHAR16 peek(const struct lexer *lx, size_t ahead)
{
	for (size_t i = 0; i < ahead; i++)
		if (!lx->line[lx->pos + i])
			return 0;
	return lx->line[lx->pos + ahead];
}

static void skip_blanks(struct lexer *lx)
{
	while (sh_is_blank(peek(lx, 0)))
		lx->pos++;
}

static bool ends_word(const struct lexer *lx, CHAR16 c)
{
	if (!c || sh_is_blank(c) || c == '#')
		return true;
	return lx->operators && (c == '|' || c == '<' || c == '>');
}

/* Reads one word at the current position (which is not blank). *word is NULL when nothing
 * word-like is there (an operator or the end). */
static EFI_STATUS read_word(struct lexer *lx, CHAR16 **word)
{
	struct sh_buf b;
	bool quoted = false, started = false;
	size_t quote_at = 0;

	sh_buf_init(&b);
	for (;;) {
		CHAR16 c = peek(lx, 0);
		if (!quoted && ends_word(lx, c))
			break;
		if (!c) {
			sh_buf_free(&b);
			return fail(lx, "a quote (\") is not closed", quote_at);
		}
		started = true;
		lx->pos++;
		if (c == '"') {
			quoted = !quoted;
			quote_at = lx->pos - 1;
		} else if (c == '^' && peek(lx, 0)) {
			sh_buf_putc(&b, peek(lx, 0));
			lx->pos++;
		} else {
			sh_buf_putc(&b, c);
		}
	}
	if (!started) {
		sh_buf_free(&b);
		*word = NULL;
		return EFI_SUCCESS;
	}
	*word = sh_buf_take(&b);
	return *word ? EFI_SUCCESS : EFI_OUT_OF_RESOURCES;
}

/* The redirection operator at the current position, if any: which stream (0 in, 1 out,
 * 2 err) and its length; 0 when there is none. */
static size_t redir_operator(const struct lexer *lx, int *stream, bool *append)
{
	size_t n = 0;
	CHAR16 c = peek(lx, 0);

	*stream = 1;
	*append = false;
	if (c == '<') {
		*stream = 0;
		return 1;
	}
	if ((c == '1' || c == '2') && peek(lx, 1) == '>') {
		*stream = c - '0';
		n = 1;
	}
	if (peek(lx, n) != '>')
		return 0;
	n++;
	if (peek(lx, n) == '>') {
		*append = true;
		n++;
	}
	return n;
}

/* After an operator: the 'a'/'v' letter counts only when a blank and a word follow it. */
static void redir_suffix(struct lexer *lx, struct sh_redir *r)
{
	CHAR16 c = peek(lx, 0), u = c >= 'a' ? (CHAR16)(c - 32) : c;
	size_t i = 1;

	if ((u != 'A' && u != 'V') || !sh_is_blank(peek(lx, 1)))
		return;
	while (sh_is_blank(peek(lx, i)))
		i++;
	if (ends_word(lx, peek(lx, i)) && peek(lx, i) != '"')
		return;
	r->ascii = u == 'A';
	r->to_var = u == 'V';
	lx->pos++;
}

static EFI_STATUS read_redirection(struct lexer *lx, struct sh_cmd *cmd)
{
	static const char *const twice[] = {"standard input is redirected twice",
					    "standard output is redirected twice",
					    "standard error is redirected twice"};
	size_t at = lx->pos;
	int stream;
	bool append;
	size_t len = redir_operator(lx, &stream, &append);
	struct sh_redir *r = stream == 0 ? &cmd->in : stream == 1 ? &cmd->out : &cmd->err;
	EFI_STATUS status;

	if (r->target)
		return fail(lx, twice[stream], at);
	lx->pos += len;
	r->append = append;
	if (stream)
		redir_suffix(lx, r);
	skip_blanks(lx);
	status = read_word(lx, &r->target);
	if (EFI_ERROR(status))
		return status;
	if (!r->target || !r->target[0])
		return fail(lx,
			    r->to_var ? "a redirection needs a variable name"
				      : "a redirection needs a file name",
			    at);
	return EFI_SUCCESS;
}

static void cmd_free(struct sh_cmd *cmd)
{
	sh_strv_free_array(cmd->argv);
	sh_free(cmd->out.target);
	sh_free(cmd->err.target);
	sh_free(cmd->in.target);
	*cmd = (struct sh_cmd){0};
}

/* Reads one command up to '|', '#' or the end. */
static EFI_STATUS read_command(struct lexer *lx, struct sh_cmd *cmd)
{
	struct sh_strv words;
	EFI_STATUS status = EFI_SUCCESS;

	sh_strv_init(&words);
	for (;;) {
		int stream;
		bool append;
		CHAR16 *word;
		skip_blanks(lx);
		CHAR16 c = peek(lx, 0);
		if (!c || c == '#' || c == '|')
			break;
		if (redir_operator(lx, &stream, &append)) {
			status = read_redirection(lx, cmd);
			if (EFI_ERROR(status))
				break;
			continue;
		}
		status = read_word(lx, &word);
		if (EFI_ERROR(status))
			break;
		sh_strv_push(&words, word);
	}
	if (!EFI_ERROR(status) && words.failed)
		status = EFI_OUT_OF_RESOURCES;
	if (!EFI_ERROR(status) && !words.v) {
		words.v = sh_zalloc(sizeof(CHAR16 *));
		if (!words.v)
			status = EFI_OUT_OF_RESOURCES;
	}
	if (EFI_ERROR(status)) {
		sh_strv_free(&words);
		return status;
	}
	cmd->argv = words.v;
	cmd->argc = words.count;
	return EFI_SUCCESS;
}

static EFI_STATUS add_command(struct sh_pipeline *p, const struct sh_cmd *cmd)
{
	struct sh_cmd *cmds = sh_alloc((p->count + 1) * sizeof(*cmds));

	if (!cmds)
		return EFI_OUT_OF_RESOURCES;
	if (p->count)
		mem_copy(cmds, p->cmds, p->count * sizeof(*cmds));
	cmds[p->count++] = *cmd;
	sh_free(p->cmds);
	p->cmds = cmds;
	return EFI_SUCCESS;
}

/* Pipes carry data only between neighbours: inner ends cannot be redirected too. */
static EFI_STATUS check_pipeline(struct lexer *lx, const struct sh_pipeline *p)
{
	for (size_t i = 0; i < p->count; i++) {
		if (i + 1 < p->count && p->cmds[i].out.target)
			return fail(lx, "the output of a command before '|' cannot be redirected",
				    0);
		if (i > 0 && p->cmds[i].in.target)
			return fail(lx, "the input of a command after '|' cannot be redirected", 0);
	}
	return EFI_SUCCESS;
}

static EFI_STATUS parse_pipeline(struct lexer *lx, struct sh_pipeline *out)
{
	for (;;) {
		struct sh_cmd cmd = {0};
		size_t start = lx->pos;
		EFI_STATUS status = read_command(lx, &cmd);
		bool piped = peek(lx, 0) == '|';

		if (!EFI_ERROR(status) && !cmd.argc && (piped || out->count))
			status =
			    fail(lx, "a command is missing next to '|'", piped ? lx->pos : start);
		if (!EFI_ERROR(status) && !cmd.argc &&
		    (cmd.out.target || cmd.err.target || cmd.in.target))
			status = fail(lx, "a redirection has no command", start);
		if (!EFI_ERROR(status) && cmd.argc) {
			status = add_command(out, &cmd);
			if (!EFI_ERROR(status))
				cmd = (struct sh_cmd){0}; /* the pipeline owns it now */
		}
		cmd_free(&cmd);
		if (EFI_ERROR(status))
			return status;
		if (!piped)
			return check_pipeline(lx, out);
		lx->pos++;
	}
}

EFI_STATUS sh_parse_line(const CHAR16 *line, struct sh_pipeline *out, struct sh_parse_error *err)
{
	struct sh_parse_error dummy;
	struct lexer lx = {line, 0, true, err ? err : &dummy};
	EFI_STATUS status;

	*out = (struct sh_pipeline){0};
	status = parse_pipeline(&lx, out);
	if (EFI_ERROR(status))
		sh_pipeline_free(out);
	return status;
}

void sh_pipeline_free(struct sh_pipeline *p)
{
	for (size_t i = 0; i < p->count; i++)
		cmd_free(&p->cmds[i]);
	sh_free(p->cmds);
	*p = (struct sh_pipeline){0};
}

EFI_STATUS sh_split_words(const CHAR16 *text, struct sh_strv *out, struct sh_parse_error *err)
{
	struct sh_parse_error dummy;
	struct lexer lx = {text, 0, false, err ? err : &dummy};

	sh_strv_init(out);
	for (;;) {
		CHAR16 *word;
		EFI_STATUS status;
		skip_blanks(&lx);
		if (!peek(&lx, 0) || peek(&lx, 0) == '#')
			break;
		status = read_word(&lx, &word);
		if (EFI_ERROR(status)) {
			sh_strv_free(out);
			return status;
		}
		sh_strv_push(out, word);
	}
	if (out->failed) {
		sh_strv_free(out);
		return EFI_OUT_OF_RESOURCES;
	}
	return EFI_SUCCESS;
}

static bool needs_quotes(const CHAR16 *w)
{
	if (!*w)
		return true;
	for (; *w; w++)
		if (sh_is_blank(*w) || *w == '"' || *w == '#' || *w == '|' || *w == '<' ||
		    *w == '>' || *w == '^')
			return true;
	return false;
}

CHAR16 *sh_join_words(CHAR16 *const *argv, size_t argc)
{
	struct sh_buf b;

	sh_buf_init(&b);
	for (size_t i = 0; i < argc; i++) {
		bool quote = needs_quotes(argv[i]);
		if (i)
			sh_buf_putc(&b, ' ');
		if (quote)
			sh_buf_putc(&b, '"');
		for (const CHAR16 *c = argv[i]; *c; c++) {
			if (quote && (*c == '"' || *c == '^'))
				sh_buf_putc(&b, '^');
			sh_buf_putc(&b, *c);
		}
		if (quote)
			sh_buf_putc(&b, '"');
	}
	return sh_buf_take(&b);
}
