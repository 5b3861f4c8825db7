/* Finding programs and scripts by name: a name with a path is taken as it is; a bare name is
 * looked for in the current directory, then in each directory of %path%. Without an
 * extension, name.nsh and then name.efi are tried. */
#include "internal.h"

/* Whether name is an existing file (not a directory). */
static bool is_file(struct shell *sh, const CHAR16 *name)
{
	EFI_FILE_PROTOCOL *f;
	EFI_FILE_INFO *info;
	bool ok;

	if (EFI_ERROR(sh_open(sh, name, EFI_FILE_MODE_READ, 0, &f)))
		return false;
	info = sh_file_info(f);
	f->Close(f);
	ok = info && !(info->Attribute & EFI_FILE_DIRECTORY);
	app_free(info);
	return ok;
}

/* Tries dir + name (+ each extension when name has none); *full gets the hit as
 * "fs0:\dir\name.efi". */
static bool try_dir(struct shell *sh, const CHAR16 *dir, size_t dir_len, const CHAR16 *name,
		    CHAR16 **full)
{
	static const char *const exts[] = {".nsh", ".efi"};
	bool plain = sh_has_extension(name, ".nsh") || sh_has_extension(name, ".efi");

	for (size_t i = 0; i < (plain ? 1 : ARRAY_SIZE(exts)); i++) {
		struct sh_buf b;
		struct sh_path p;
		CHAR16 *candidate;
		sh_buf_init(&b);
		sh_buf_put(&b, dir, dir_len);
		if (dir_len && dir[dir_len - 1] != '\\' && dir[dir_len - 1] != ':')
			sh_buf_putc(&b, '\\');
		sh_buf_puts(&b, name);
		if (!plain)
			sh_buf_put_ascii(&b, exts[i]);
		candidate = sh_buf_take(&b);
		if (candidate && is_file(sh, candidate) &&
		    !EFI_ERROR(sh_resolve(sh, candidate, &p))) {
			*full = sh_path_text(sh, &p);
			sh_path_free(&p);
			app_free(candidate);
			return *full != NULL;
		}
		app_free(candidate);
	}
	return false;
}

EFI_STATUS sh_find_executable(struct shell *sh, const CHAR16 *name, CHAR16 **full)
{
	const CHAR16 *path, *p;

	if (str16_chr(name, '\\') || str16_chr(name, '/') || str16_chr(name, ':'))
		return try_dir(sh, NULL, 0, name, full) ? EFI_SUCCESS : EFI_NOT_FOUND;
	if (try_dir(sh, NULL, 0, name, full))
		return EFI_SUCCESS;
	path = sh_env_get(sh, u"path");
	for (p = path; p && *p;) {
		const CHAR16 *end = p;
		while (*end && *end != ';')
			end++;
		if (end > p && try_dir(sh, p, (size_t)(end - p), name, full))
			return EFI_SUCCESS;
		p = *end ? end + 1 : end;
	}
	return EFI_NOT_FOUND;
}
