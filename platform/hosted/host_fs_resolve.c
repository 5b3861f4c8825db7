/* Hosted volume: turning normalised EFI paths into host paths. Each component is looked
 * up exactly first, then by a case-insensitive scan of its directory, as FAT names match. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "host_fs.h"
#include <ember/core/core.h>
#include <ember/core/log.h>
#include <ember/lib/path.h>
#include <ember/lib/str.h>

/* UTF-8 bytes for one UCS-2 unit, at most. */
#define UTF8_PER_UNIT 3

char *host_fs_join(const char *dir, const CHAR16 *name, size_t name_len)
{
	bool root = strcmp(dir, ".") == 0;
	size_t dir_len = root ? 0 : strlen(dir);
	size_t size = dir_len + 1 + name_len * UTF8_PER_UNIT + 1;
	char *out = pool_alloc(size);

	if (!out)
		return NULL;
	if (!root) {
		memcpy(out, dir, dir_len);
		out[dir_len++] = '/';
	}
	ucs2_to_utf8(out + dir_len, size - dir_len, name, name_len);
	return out;
}

CHAR16 *host_fs_join_efi(const CHAR16 *dir, size_t dir_len, const CHAR16 *name, size_t name_len)
{
	size_t sep = dir_len > 1;
	CHAR16 *out = pool_alloc((dir_len + sep + name_len + 1) * sizeof(CHAR16));

	if (!out)
		return NULL;
	mem_copy(out, dir, dir_len * sizeof(CHAR16));
	if (sep)
		out[dir_len] = u'\\';
	mem_copy(out + dir_len + sep, name, name_len * sizeof(CHAR16));
	out[dir_len + sep + name_len] = 0;
	return out;
}

/* Where the symlink at host_path leads, canonical, stays below the volume's root. */
static bool link_inside(struct host_volume *vol, const char *host_path)
{
	size_t n = strlen(vol->real_root);
	char *full = NULL, *real = NULL;
	bool inside;

	if (asprintf(&full, "%s/%s", vol->real_root, host_path) < 0)
		return false;
	real = realpath(full, NULL);
	/* A root of "/" holds everything. */
	inside = real && strncmp(real, vol->real_root, n) == 0 &&
		 (real[n] == '/' || real[n] == 0 || n == 1);
	free(real);
	free(full);
	return inside;
}

bool host_fs_followable(struct host_volume *vol, const char *host_path)
{
	struct stat st;

	/* Only the link itself needs a look: the components before it were checked when
	 * the path was resolved, one by one. */
	if (fstatat(vol->root_fd, host_path, &st, AT_SYMLINK_NOFOLLOW) != 0 || !S_ISLNK(st.st_mode))
		return true;
	return link_inside(vol, host_path);
}

EFI_STATUS host_fs_stat(struct host_volume *vol, const char *host_path, struct stat *st)
{
	if (fstatat(vol->root_fd, host_path, st, 0) != 0)
		return host_fs_errno_status(errno);
	if (!S_ISREG(st->st_mode) && !S_ISDIR(st->st_mode))
		return EFI_ACCESS_DENIED; /* devices, FIFOs and sockets are not files here */
	return EFI_SUCCESS;
}

bool host_fs_dir_writable(struct host_volume *vol, const char *host_path)
{
	struct stat st;

	/* Mode bits, not access(): ember-run often runs as root, which access() lets through. */
	if (vol->read_only || fstatat(vol->root_fd, host_path, &st, 0) != 0)
		return false;
	return (st.st_mode & 0222) != 0 && faccessat(vol->root_fd, host_path, W_OK, 0) == 0;
}

/* Scans the directory dir for an entry equal to name without case; on success *match is
 * a new pool copy of the on-disk name in UCS-2. */
static EFI_STATUS scan_dir(struct host_volume *vol, const char *dir, const CHAR16 *name,
			   size_t name_len, CHAR16 **match)
{
	CHAR16 entry[PATH_NAME_MAX + 1]; /* a host name has at most 255 bytes */
	int fd = openat(vol->root_fd, dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	EFI_STATUS status = EFI_NOT_FOUND;
	struct dirent *d;
	DIR *dp;

	if (fd < 0)
		return host_fs_errno_status(errno);
	dp = fdopendir(fd);
	if (!dp) {
		close(fd);
		return EFI_OUT_OF_RESOURCES;
	}
	while ((d = readdir(dp)) != NULL) {
		size_t n;

		if (strcmp(d->d_name, ".") == 0 || strcmp(d->d_name, "..") == 0)
			continue;
		n = utf8_to_ucs2(entry, ARRAY_SIZE(entry), d->d_name, strlen(d->d_name));
		if (path_name_equal(entry, n, name, name_len)) {
			*match = pool_dup(entry, (n + 1) * sizeof(CHAR16));
			status = *match ? EFI_SUCCESS : EFI_OUT_OF_RESOURCES;
			break;
		}
	}
	closedir(dp);
	return status;
}

/* Finds one component in the directory (efi_dir, host_dir) and returns both joined paths. */
static EFI_STATUS resolve_step(struct host_volume *vol, const CHAR16 *efi_dir, const char *host_dir,
			       const CHAR16 *name, size_t name_len, CHAR16 **efi_out,
			       char **host_out)
{
	CHAR16 *on_disk = NULL;
	struct stat st;
	EFI_STATUS status;
	char *host = host_fs_join(host_dir, name, name_len);

	if (!host)
		return EFI_OUT_OF_RESOURCES;
	if (fstatat(vol->root_fd, host, &st, 0) != 0) {
		pool_free(host);
		status = scan_dir(vol, host_dir, name, name_len, &on_disk);
		if (EFI_ERROR(status))
			return status;
		name = on_disk;
		name_len = str16_len(on_disk);
		host = host_fs_join(host_dir, name, name_len);
	}
	if (host && !host_fs_followable(vol, host)) {
		log_warn("ember-run: --esp: %s is a symlink out of the directory: not followed\n",
			 host);
		pool_free(host);
		pool_free(on_disk);
		return EFI_ACCESS_DENIED;
	}
	*efi_out = host ? host_fs_join_efi(efi_dir, str16_len(efi_dir), name, name_len) : NULL;
	pool_free(on_disk);
	if (!*efi_out) {
		pool_free(host);
		return EFI_OUT_OF_RESOURCES;
	}
	*host_out = host;
	return EFI_SUCCESS;
}

EFI_STATUS host_fs_resolve(struct host_volume *vol, const CHAR16 *efi_path, CHAR16 **found_efi,
			   char **found_host)
{
	CHAR16 *efi = pool_dup(u"\\", sizeof(u"\\"));
	char *host = pool_dup(".", 2);
	const CHAR16 *cursor = efi_path, *name;
	EFI_STATUS status = efi && host ? EFI_SUCCESS : EFI_OUT_OF_RESOURCES;
	size_t n;

	while (!EFI_ERROR(status) && (n = path_next(&cursor, &name)) != 0) {
		CHAR16 *next_efi;
		char *next_host;

		status = resolve_step(vol, efi, host, name, n, &next_efi, &next_host);
		if (EFI_ERROR(status))
			break;
		pool_free(efi);
		pool_free(host);
		efi = next_efi;
		host = next_host;
	}
	if (EFI_ERROR(status)) {
		pool_free(efi);
		pool_free(host);
		return status;
	}
	*found_efi = efi;
	*found_host = host;
	return EFI_SUCCESS;
}

EFI_STATUS host_fs_resolve_parent(struct host_volume *vol, const CHAR16 *path, CHAR16 **efi_dir,
				  char **host_dir)
{
	size_t len = path_parent_len(path);
	CHAR16 *parent = pool_alloc((len + 1) * sizeof(CHAR16));
	EFI_STATUS status;
	struct stat st;

	if (!parent)
		return EFI_OUT_OF_RESOURCES;
	mem_copy(parent, path, len * sizeof(CHAR16));
	status = host_fs_resolve(vol, parent, efi_dir, host_dir);
	pool_free(parent);
	if (EFI_ERROR(status))
		return status;
	status = host_fs_stat(vol, *host_dir, &st);
	if (!EFI_ERROR(status) && !S_ISDIR(st.st_mode))
		status = EFI_NOT_FOUND;
	if (!EFI_ERROR(status) && !host_fs_dir_writable(vol, *host_dir))
		status = EFI_ACCESS_DENIED;
	if (EFI_ERROR(status)) {
		pool_free(*efi_dir);
		pool_free(*host_dir);
	}
	return status;
}

bool host_file_parent_writable(struct host_file *f)
{
	char *slash = strrchr(f->host_path, '/');
	bool ok;

	if (!slash)
		return host_fs_dir_writable(f->volume, ".");
	*slash = 0;
	ok = host_fs_dir_writable(f->volume, f->host_path);
	*slash = '/';
	return ok;
}

bool host_file_path_current(struct host_file *f)
{
	struct stat by_fd, by_path;

	return fstat(f->fd, &by_fd) == 0 &&
	       fstatat(f->volume->root_fd, f->host_path, &by_path, 0) == 0 &&
	       by_fd.st_dev == by_path.st_dev && by_fd.st_ino == by_path.st_ino;
}
