/* Redirections of one command: files (UCS-2 with a byte-order mark, or ASCII/UTF-8 with the
 * 'a' form; >> appends in the file's own encoding), NUL, environment variables (>v) and
 * standard input from a file (<). */
#include "internal.h"

static const UINT8 bom[2] = {0xff, 0xfe};

/* Whether an existing file holds UCS-2 text (starts with the byte-order mark). */
static bool file_is_ucs2(EFI_FILE_PROTOCOL *f)
{
	UINT8 head[2] = {0, 0};
	UINTN n = sizeof(head);

	if (EFI_ERROR(f->SetPosition(f, 0)) || EFI_ERROR(f->Read(f, &n, head)))
		return false;
	return n == 2 && head[0] == bom[0] && head[1] == bom[1];
}

static EFI_STATUS open_for_append(struct shell *sh, const struct sh_redir *rd,
				  EFI_FILE_PROTOCOL **f, bool *ascii, bool *empty)
{
	UINT64 mode = EFI_FILE_MODE_READ | EFI_FILE_MODE_WRITE | EFI_FILE_MODE_CREATE;
	EFI_FILE_INFO *info;
	EFI_STATUS status = sh_open(sh, rd->target, mode, 0, f);

	if (EFI_ERROR(status))
		return status;
	info = sh_file_info(*f);
	if (!info || (info->Attribute & EFI_FILE_DIRECTORY)) {
		status = info ? EFI_ACCESS_DENIED : EFI_DEVICE_ERROR;
		app_free(info);
		(*f)->Close(*f);
		return status;
	}
	*empty = info->FileSize == 0;
	if (!*empty)
		*ascii = !file_is_ucs2(*f);
	app_free(info);
	return (*f)->SetPosition(*f, 0xffffffffffffffffULL);
}

/* Opens an output target into s. */
static EFI_STATUS open_output(struct shell *sh, const struct sh_redir *rd, struct sh_stream *s)
{
	EFI_FILE_PROTOCOL *f;
	bool ascii = rd->ascii, empty = true;
	EFI_STATUS status;

	if (rd->to_var) {
		sh_stream_memory(s, sh);
		return EFI_SUCCESS;
	}
	if (sh_eq_ascii(rd->target, "NUL")) {
		sh_stream_null(s, sh);
		return EFI_SUCCESS;
	}
	if (rd->append)
		status = open_for_append(sh, rd, &f, &ascii, &empty);
	else
		status = sh_create_file(sh, rd->target, &f);
	if (EFI_ERROR(status))
		return status;
	sh_stream_file(s, sh, f, ascii);
	if (empty && !ascii) {
		UINTN n = sizeof(bom);
		status = f->Write(f, &n, (void *)bom);
		if (EFI_ERROR(status))
			sh_stream_close(s);
	}
	return status;
}

static EFI_STATUS open_input(struct shell *sh, const struct sh_redir *rd, struct sh_stream *s)
{
	void *data;
	UINTN size;
	CHAR16 *text;
	size_t len;
	EFI_STATUS status;

	sh_stream_memory(s, sh);
	if (sh_eq_ascii(rd->target, "NUL"))
		return EFI_SUCCESS;
	status = sh_read_file(sh, rd->target, &data, &size);
	if (EFI_ERROR(status))
		return status;
	status = sh_text_decode(data, size, &text, &len);
	app_free(data);
	if (EFI_ERROR(status))
		return status;
	sh_buf_put(&s->text, text, len);
	app_free(text);
	return s->text.failed ? EFI_OUT_OF_RESOURCES : EFI_SUCCESS;
}

static void report(struct shell *sh, const CHAR16 *target, const char *what, EFI_STATUS status)
{
	sh_error(sh, "cannot open %ls for %s: %r\n", target, what, status);
}

EFI_STATUS sh_redirect_begin(struct shell *sh, const struct sh_cmd *cmd,
			     struct sh_redirect_state *r)
{
	EFI_STATUS status;

	*r = (struct sh_redirect_state){
	    .saved_in = sh->in, .saved_out = sh->out, .saved_err = sh->err};
	if (cmd->in.target) {
		status = open_input(sh, &cmd->in, &r->in);
		r->has_in = true;
		if (EFI_ERROR(status))
			goto fail_in;
		sh->in = &r->in;
	}
	if (cmd->out.target) {
		status = open_output(sh, &cmd->out, &r->out);
		if (EFI_ERROR(status))
			goto fail_out;
		r->has_out = true;
		r->out_var = cmd->out.to_var ? cmd->out.target : NULL;
		sh->out = &r->out;
	}
	if (cmd->err.target && cmd->out.target && !cmd->out.to_var &&
	    sh_eq_nocase(cmd->err.target, cmd->out.target)) {
		sh->err = &r->out;
	} else if (cmd->err.target) {
		status = open_output(sh, &cmd->err, &r->err);
		if (EFI_ERROR(status))
			goto fail_err;
		r->has_err = true;
		r->err_var = cmd->err.to_var ? cmd->err.target : NULL;
		sh->err = &r->err;
	}
	return EFI_SUCCESS;

fail_err:
	sh->err = r->saved_err;
	report(sh, cmd->err.target, "output", status);
	goto close;
fail_out:
	report(sh, cmd->out.target, "output", status);
	goto close;
fail_in:
	report(sh, cmd->in.target, "input", status);
close:
	r->out_var = r->err_var = NULL;
	sh_redirect_end(sh, r);
	return status;
}

/* ">v name": the captured text, without its last line end, becomes a volatile variable. */
static void store_var(struct shell *sh, const CHAR16 *name, struct sh_stream *s)
{
	CHAR16 *text = s->text.s ? s->text.s : (CHAR16 *)u"";
	size_t n = s->text.s ? s->text.len : 0;

	while (n && (text[n - 1] == '\n' || text[n - 1] == '\r'))
		n--;
	if (s->text.s)
		text[n] = 0;
	if (EFI_ERROR(sh_env_set(sh, name, text, true)))
		sh_error(sh, "cannot set the variable %ls\n", name);
}

void sh_redirect_end(struct shell *sh, struct sh_redirect_state *r)
{
	sh->in = r->saved_in;
	sh->out = r->saved_out;
	sh->err = r->saved_err;
	if (r->out_var)
		store_var(sh, r->out_var, &r->out);
	if (r->err_var)
		store_var(sh, r->err_var, &r->err);
	if (r->has_in)
		sh_stream_close(&r->in);
	if (r->has_out)
		sh_stream_close(&r->out);
	if (r->has_err)
		sh_stream_close(&r->err);
	r->has_in = r->has_out = r->has_err = false;
}
