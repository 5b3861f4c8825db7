/* Hosted volume: renaming through SetInfo(EFI_FILE_INFO) with a new FileName (UEFI 2.10,
 * 13.5.14, 13.5.16). A name with '\' moves the file: relative names start from the file's
 * directory, names starting with '\' from the root. */
#include <errno.h>
#include <stdio.h>
#include <unistd.h>
#include <sys/stat.h>

#include "host_fs.h"
#include <ember/core/core.h>
#include <ember/lib/path.h>
#include <ember/lib/str.h>

EFI_STATUS host_fs_rename_target(struct host_file *f, const CHAR16 *new_name, CHAR16 **target)
{
	size_t parent_len = path_parent_len(f->efi_path);
	size_t units = parent_len + str16_len(new_name) + 3;
	CHAR16 *base = pool_alloc((parent_len + 2) * sizeof(CHAR16));
	CHAR16 *out = pool_alloc(units * sizeof(CHAR16));
	EFI_STATUS status = EFI_OUT_OF_RESOURCES;

	if (base && out) {
		if (parent_len)
			mem_copy(base, f->efi_path, parent_len * sizeof(CHAR16));
		else
			base[0] = u'\\'; /* the root names itself */
		status = path_normalize(base, new_name, out, units);
	}
	pool_free(base);
	if (EFI_ERROR(status)) {
		pool_free(out);
		return status;
	}
	*target = out;
	return EFI_SUCCESS;
}

/* EFI_ACCESS_DENIED when target names a file other than f's (a case-only change of f's own
 * name is fine); EFI_SUCCESS when target is free. */
static EFI_STATUS check_target_free(struct host_file *f, const CHAR16 *target)
{
	struct stat mine, theirs;
	CHAR16 *efi_path;
	char *host_path;
	EFI_STATUS status = host_fs_resolve(f->volume, target, &efi_path, &host_path);

	if (status == EFI_NOT_FOUND)
		return EFI_SUCCESS;
	if (EFI_ERROR(status))
		return status;
	if (fstat(f->fd, &mine) != 0 || fstatat(f->volume->root_fd, host_path, &theirs, 0) != 0 ||
	    mine.st_dev != theirs.st_dev || mine.st_ino != theirs.st_ino)
		status = EFI_ACCESS_DENIED;
	pool_free(efi_path);
	pool_free(host_path);
	return status;
}

EFI_STATUS host_file_rename(struct host_file *f, const CHAR16 *target)
{
	const CHAR16 *name = path_last(target);
	size_t name_len = str16_len(name);
	CHAR16 *efi_dir, *new_efi;
	char *host_dir, *new_host;
	EFI_STATUS status;

	if (name_len == 0 || !host_file_parent_writable(f) || !host_file_path_current(f))
		return EFI_ACCESS_DENIED; /* the root, a directory taking no changes, stale */
	if (!path_name_creatable(name, name_len))
		return EFI_INVALID_PARAMETER;
	status = check_target_free(f, target);
	if (!EFI_ERROR(status))
		status = host_fs_resolve_parent(f->volume, target, &efi_dir, &host_dir);
	if (EFI_ERROR(status))
		return status;
	new_efi = host_fs_join_efi(efi_dir, str16_len(efi_dir), name, name_len);
	new_host = host_fs_join(host_dir, name, name_len);
	pool_free(efi_dir);
	pool_free(host_dir);
	if (!new_efi || !new_host)
		status = EFI_OUT_OF_RESOURCES;
	else if (renameat(f->volume->root_fd, f->host_path, f->volume->root_fd, new_host) != 0)
		status = host_fs_errno_status(errno); /* EINVAL: into its own subtree */
	if (EFI_ERROR(status)) {
		pool_free(new_efi);
		pool_free(new_host);
		return status;
	}
	pool_free(f->efi_path);
	pool_free(f->host_path);
	f->efi_path = new_efi;
	f->host_path = new_host;
	return EFI_SUCCESS;
}
