/* Copying and deleting trees, for cp, mv and rm. */
#include "cmd.h"

#define COPY_CHUNK (64 * 1024)

EFI_FILE_INFO *cmd_stat(struct shell *sh, const CHAR16 *name)
{
	EFI_FILE_PROTOCOL *f;
	EFI_FILE_INFO *info;

	if (EFI_ERROR(sh_open(sh, name, EFI_FILE_MODE_READ, 0, &f)))
		return NULL;
	info = sh_file_info(f);
	f->Close(f);
	return info;
}

CHAR16 *cmd_join(const CHAR16 *dir, const CHAR16 *name)
{
	struct sh_buf b;

	sh_buf_init(&b);
	sh_buf_puts(&b, dir);
	if (b.len && b.s[b.len - 1] != '\\' && b.s[b.len - 1] != ':')
		sh_buf_putc(&b, '\\');
	sh_buf_puts(&b, name);
	return sh_buf_take(&b);
}

bool cmd_same_file(struct shell *sh, const CHAR16 *a, const CHAR16 *b)
{
	struct sh_path pa, pb;
	bool same = false;

	if (EFI_ERROR(sh_resolve(sh, a, &pa)))
		return false;
	if (!EFI_ERROR(sh_resolve(sh, b, &pb))) {
		same = pa.map == pb.map && sh_eq_nocase(pa.path, pb.path);
		sh_path_free(&pb);
	}
	sh_path_free(&pa);
	return same;
}

static EFI_STATUS copy_data(EFI_FILE_PROTOCOL *in, EFI_FILE_PROTOCOL *out)
{
	UINT8 *buf = app_alloc(COPY_CHUNK);
	EFI_STATUS status = buf ? EFI_SUCCESS : EFI_OUT_OF_RESOURCES;

	while (!EFI_ERROR(status)) {
		UINTN n = COPY_CHUNK, w;
		status = in->Read(in, &n, buf);
		if (EFI_ERROR(status) || !n)
			break;
		w = n;
		status = out->Write(out, &w, buf);
		if (!EFI_ERROR(status) && w != n)
			status = EFI_VOLUME_FULL;
	}
	app_free(buf);
	return status;
}

static EFI_STATUS copy_file(struct shell *sh, const char *cmd, const CHAR16 *src, const CHAR16 *dst)
{
	EFI_FILE_PROTOCOL *in, *out;
	EFI_STATUS status = sh_open(sh, src, EFI_FILE_MODE_READ, 0, &in);

	if (EFI_ERROR(status)) {
		sh_error(sh, "%s: cannot read %ls: %s\n", cmd, src, sh_status_text(status));
		return status;
	}
	status = sh_create_file(sh, dst, &out);
	if (EFI_ERROR(status)) {
		in->Close(in);
		sh_error(sh, "%s: cannot create %ls: %s\n", cmd, dst, sh_status_text(status));
		return status;
	}
	status = copy_data(in, out);
	in->Close(in);
	if (EFI_ERROR(status)) {
		out->Close(out);
		sh_error(sh, "%s: copying %ls to %ls failed: %s\n", cmd, src, dst,
			 sh_status_text(status));
		return status;
	}
	return out->Close(out);
}

static EFI_STATUS copy_any(struct shell *sh, const char *cmd, const CHAR16 *src, const CHAR16 *dst);

static EFI_STATUS copy_dir(struct shell *sh, const char *cmd, const CHAR16 *src, const CHAR16 *dst)
{
	UINT64 mode = EFI_FILE_MODE_READ | EFI_FILE_MODE_WRITE | EFI_FILE_MODE_CREATE;
	EFI_FILE_PROTOCOL *f;
	struct sh_match *m;
	UINTN count;
	CHAR16 *pattern = cmd_join(src, u"*");
	EFI_STATUS status = sh_open(sh, dst, mode, EFI_FILE_DIRECTORY, &f);

	if (EFI_ERROR(status)) {
		app_free(pattern);
		sh_error(sh, "%s: cannot create %ls: %s\n", cmd, dst, sh_status_text(status));
		return status;
	}
	f->Close(f);
	if (!pattern || EFI_ERROR(sh_glob(sh, pattern, &m, &count))) {
		app_free(pattern);
		return EFI_SUCCESS; /* an empty directory */
	}
	for (UINTN i = 0; i < count && !EFI_ERROR(status); i++) {
		CHAR16 *to = cmd_join(dst, m[i].name);
		status = to ? copy_any(sh, cmd, m[i].full, to) : EFI_OUT_OF_RESOURCES;
		app_free(to);
	}
	sh_glob_free(m, count);
	app_free(pattern);
	return status;
}

/* A file or a directory with its contents, without the checks of cmd_copy (done once). */
static EFI_STATUS copy_any(struct shell *sh, const char *cmd, const CHAR16 *src, const CHAR16 *dst)
{
	EFI_FILE_INFO *info = cmd_stat(sh, src);
	bool is_dir = info && (info->Attribute & EFI_FILE_DIRECTORY);

	if (!info) {
		sh_error(sh, "%s: %ls: no such file or directory\n", cmd, src);
		return EFI_NOT_FOUND;
	}
	app_free(info);
	return is_dir ? copy_dir(sh, cmd, src, dst) : copy_file(sh, cmd, src, dst);
}

EFI_STATUS cmd_copy(struct shell *sh, const char *cmd, const CHAR16 *src, const CHAR16 *dst,
		    bool recursive)
{
	EFI_FILE_INFO *info = cmd_stat(sh, src);
	EFI_STATUS status;
	bool is_dir;

	if (!info) {
		sh_error(sh, "%s: %ls: no such file or directory\n", cmd, src);
		return EFI_NOT_FOUND;
	}
	is_dir = info->Attribute & EFI_FILE_DIRECTORY;
	app_free(info);
	if (cmd_same_file(sh, src, dst)) {
		sh_error(sh, "%s: %ls cannot be copied onto itself\n", cmd, src);
		return EFI_INVALID_PARAMETER;
	}
	if (is_dir && !recursive) {
		sh_error(sh, "%s: %ls is a directory (use -r)\n", cmd, src);
		return EFI_INVALID_PARAMETER;
	}
	if (!is_dir)
		return copy_file(sh, cmd, src, dst);
	status = cmd_tree_check(sh, cmd, src, "nothing copied");
	return EFI_ERROR(status) ? status : copy_dir(sh, cmd, src, dst);
}

static EFI_STATUS remove_any(struct shell *sh, const char *cmd, const CHAR16 *name);

static EFI_STATUS empty_dir(struct shell *sh, const char *cmd, const CHAR16 *name)
{
	struct sh_match *m;
	UINTN count;
	CHAR16 *pattern = cmd_join(name, u"*");
	EFI_STATUS status = EFI_SUCCESS;

	if (!pattern)
		return EFI_OUT_OF_RESOURCES;
	if (!EFI_ERROR(sh_glob(sh, pattern, &m, &count))) {
		for (UINTN i = 0; i < count && !EFI_ERROR(status); i++)
			status = remove_any(sh, cmd, m[i].full);
		sh_glob_free(m, count);
	}
	app_free(pattern);
	return status;
}

/* A file or a directory with its contents, once cmd_remove_tree has checked the tree. */
static EFI_STATUS remove_any(struct shell *sh, const char *cmd, const CHAR16 *name)
{
	EFI_FILE_INFO *info = cmd_stat(sh, name);
	EFI_FILE_PROTOCOL *f;
	EFI_STATUS status = info ? EFI_SUCCESS : EFI_NOT_FOUND;

	if (info && (info->Attribute & EFI_FILE_DIRECTORY))
		status = empty_dir(sh, cmd, name);
	app_free(info);
	if (status == EFI_NOT_FOUND)
		goto fail;
	if (EFI_ERROR(status))
		return status;
	status = sh_open(sh, name, EFI_FILE_MODE_READ | EFI_FILE_MODE_WRITE, 0, &f);
	if (!EFI_ERROR(status))
		status = f->Delete(f);
	if (status == EFI_WARN_DELETE_FAILURE)
		status = EFI_ACCESS_DENIED;
	if (!EFI_ERROR(status))
		return EFI_SUCCESS;
fail:
	sh_error(sh, "%s: cannot delete %ls: %s\n", cmd, name, sh_status_text(status));
	return status;
}

EFI_STATUS cmd_remove_tree(struct shell *sh, const char *cmd, const CHAR16 *name)
{
	EFI_STATUS status = cmd_tree_check(sh, cmd, name, "nothing deleted");

	return EFI_ERROR(status) ? status : remove_any(sh, cmd, name);
}
