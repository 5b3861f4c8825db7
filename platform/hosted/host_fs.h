/* The hosted volume: a host directory as EFI_SIMPLE_FILE_SYSTEM_PROTOCOL (UEFI 2.10, 13.4,
 * 13.5). Shared between the platform/hosted/host_fs_*.c files.
 *
 * Every file handle keeps its host path relative to the volume's root directory fd, built
 * only from validated components (no "/", ".", ".." or control characters), and a symlink
 * is followed only when it leads to something inside the directory, so nothing outside
 * it is reachable. */
#ifndef HOSTED_HOST_FS_H
#define HOSTED_HOST_FS_H

#include <dirent.h>
#include <sys/stat.h>
#include <efi/protocol/device_path.h>
#include <efi/protocol/simple_file_system.h>
#include <ember/drivers/file_front.h>
#include <ember/lib/util.h>
#include "hosted.h"

#define HOST_VOLUME_SIGNATURE SIGNATURE_32('h', 'v', 'o', 'l')
/* The longest volume label kept, in UCS-2 units. */
#define HOST_LABEL_MAX 255

/* The vendor GUID of the VenHw() device path node of hosted volumes; the node's vendor
 * data is the volume's index (UINT32). */
#define EMBER_HOSTED_VOLUME_GUID                                                                   \
	EFI_GUID_INIT(0x982609f9, 0x3366, 0x4777, 0xab, 0xc4, 0x0c, 0xec, 0xe3, 0xad, 0x9d, 0x72)

/* One mounted directory; lives as long as ember-run. */
struct host_volume {
	UINT32 signature;
	EFI_SIMPLE_FILE_SYSTEM_PROTOCOL sfs;
	EFI_HANDLE handle;
	/* O_DIRECTORY fd of the host directory, and its canonical path (realpath). */
	int root_fd;
	char *real_root;
	/* The directory is not writable: changes get EFI_WRITE_PROTECTED. */
	bool read_only;
	/* The label, kept in memory only. */
	CHAR16 label[HOST_LABEL_MAX + 1];
	struct hosted_index_path device_path;
};

/* One EFI_FILE_PROTOCOL handle; its entry points are the shared front end's. */
struct host_file {
	struct file_front front;
	struct host_volume *volume;
	/* The normalised EFI path with the names found on disk ("\" for the root). */
	CHAR16 *efi_path;
	/* The same path relative to root_fd, in UTF-8 ("." for the root). */
	char *host_path;
	/* The open file or directory. */
	int fd;
	bool is_dir;
	/* Opened with EFI_FILE_MODE_WRITE. */
	bool writable;
	/* Files: the byte position of Read and Write. */
	UINT64 position;
	/* Directories being listed: the stream (NULL until the first Read), and an entry that
	 * did not fit the caller's buffer. */
	DIR *dir;
	struct dirent *pending;
};

/* ---- host_fs_handle.c: handles, TPL, errno ---- */

/* TPL_NOTIFY, so no notify function (and no re-entry) runs during host calls; tpl_raise
 * leaves a higher TPL alone, so callers above TPL_NOTIFY are unaffected. */
#define HOST_FS_TPL TPL_NOTIFY

/* The handle a front-end handle is. */
static inline struct host_file *host_file_of(struct file_front *front)
{
	return container_of(front, struct host_file, front);
}
/* The handles' operations (struct file_front_ops). */
extern const struct file_front_ops host_file_ops;
/* Raises to HOST_FS_TPL. */
EFI_TPL host_fs_enter(void);
void host_fs_leave(EFI_TPL old);
/* An EFI_STATUS for a failed host call's errno. */
EFI_STATUS host_fs_errno_status(int err);

/* ---- host_fs_resolve.c: EFI paths to host paths ---- */

/* Finds the file at the normalised path efi_path (components matched exactly first, then
 * without case). Returns new pool strings: the path with on-disk names and its host form. */
EFI_STATUS host_fs_resolve(struct host_volume *vol, const CHAR16 *efi_path, CHAR16 **found_efi,
			   char **found_host);
/* Joins a host directory path and one EFI name into a new pool string. */
char *host_fs_join(const char *dir, const CHAR16 *name, size_t name_len);
/* Joins a normalised EFI directory path and one name into a new pool string. */
CHAR16 *host_fs_join_efi(const CHAR16 *dir, size_t dir_len, const CHAR16 *name, size_t name_len);
/* False for a symlink at host_path that leads outside the volume's directory (or
 * nowhere): such links are never followed. True for anything else. */
bool host_fs_followable(struct host_volume *vol, const char *host_path);
/* The file's status, following symlinks; regular files and directories only. */
EFI_STATUS host_fs_stat(struct host_volume *vol, const char *host_path, struct stat *st);
/* True when new entries may be made in (or removed from) the directory at host_path. */
bool host_fs_dir_writable(struct host_volume *vol, const char *host_path);
/* Resolves the parent of a normalised (non-root) path: it must be a directory that takes
 * new entries (EFI_NOT_FOUND, EFI_ACCESS_DENIED). Returns pool paths like host_fs_resolve. */
EFI_STATUS host_fs_resolve_parent(struct host_volume *vol, const CHAR16 *path, CHAR16 **efi_dir,
				  char **host_dir);
/* True when the directory holding a handle's file takes changes (delete, rename). */
bool host_file_parent_writable(struct host_file *f);
/* True when the handle's path still names the file it has open (no one renamed it). */
bool host_file_path_current(struct host_file *f);

/* ---- host_fs_volume.c ---- */

/* GetInfo of EFI_FILE_SYSTEM_INFO and EFI_FILE_SYSTEM_VOLUME_LABEL; *size in, needed size
 * out. */
EFI_STATUS host_file_fs_info(struct file_front *front, UINTN *size, void *buffer);
EFI_STATUS host_file_volume_label(struct file_front *front, UINTN *size, void *buffer);
/* SetInfo of the label (checked by the front end: at most HOST_LABEL_MAX units). */
EFI_STATUS host_file_set_label(struct file_front *front, const CHAR16 *label);

/* ---- host_fs_open.c ---- */

/* A new handle on the file or directory at host_path; takes both paths (freed on failure).
 * A read-only file refuses a writable handle (EFI_ACCESS_DENIED). */
EFI_STATUS host_file_open(struct host_volume *vol, CHAR16 *efi_path, char *host_path, bool writable,
			  struct host_file **out);
/* Releases everything a handle holds. */
void host_file_free(struct host_file *f);
/* Open() and Close(). */
EFI_STATUS host_file_open_name(struct file_front *from, const CHAR16 *name, UINT64 mode,
			       UINT64 attributes, struct file_front **out);
void host_file_close(struct file_front *front);

/* ---- host_fs_create.c ---- */

/* Creates the file (or, with EFI_FILE_DIRECTORY, the directory) at the normalised path
 * whose parent exists; returns the new pool paths like host_fs_resolve. */
EFI_STATUS host_fs_create(struct host_volume *vol, const CHAR16 *path, UINT64 attributes,
			  CHAR16 **efi_path, char **host_path);
/* EFI_FILE_READ_ONLY on the host: no write permission for anyone, or write permission for
 * the owner. */
EFI_STATUS host_fs_set_read_only(int fd, bool read_only);
/* Delete()'s removal. */
EFI_STATUS host_file_delete(struct file_front *front);

/* ---- host_fs_io.c ---- */

EFI_STATUS host_file_read(struct file_front *front, UINTN *size, void *buffer);
EFI_STATUS host_file_write(struct file_front *front, UINTN *size, const void *buffer);
EFI_STATUS host_file_get_position(struct file_front *front, UINT64 *position);
EFI_STATUS host_file_set_position(struct file_front *front, UINT64 position);
EFI_STATUS host_file_flush(struct file_front *front);

/* ---- host_fs_dir.c ---- */

/* Read() on a directory: the next EFI_FILE_INFO, without "." and "..". */
EFI_STATUS host_dir_read(struct host_file *f, UINTN *size, VOID *buffer);
/* Starts the listing over. */
void host_dir_rewind(struct host_file *f);

/* ---- host_fs_info.c ---- */

/* The EFI_FILE_INFO of the file at (dirfd, path, AT_* flags) named name; *size in, the
 * needed size out. EFI_NOT_FOUND or EFI_ACCESS_DENIED when it is no file or directory. */
EFI_STATUS host_fs_file_info(int dirfd, const char *path, int flags, const CHAR16 *name,
			     UINTN *size, VOID *buffer);
/* Converts a host time to an EFI_TIME in local time. */
void host_fs_time_to_efi(const struct timespec *ts, EFI_TIME *time);
/* GetInfo of EFI_FILE_INFO. */
EFI_STATUS host_file_info(struct file_front *front, UINTN *size, void *buffer);

/* ---- host_fs_setinfo.c ---- */

/* SetInfo of EFI_FILE_INFO: the request's fixed part and its FileName. */
EFI_STATUS host_file_set_info(struct file_front *front, const EFI_FILE_INFO *info,
			      const CHAR16 *name);

/* ---- host_fs_rename.c ---- */

/* The normalised path a SetInfo FileName names: relative to the file's directory unless
 * it starts with '\'. A new pool string. */
EFI_STATUS host_fs_rename_target(struct host_file *f, const CHAR16 *new_name, CHAR16 **target);
/* Renames (or moves) a file to the normalised path target. EFI_ACCESS_DENIED when another
 * file has that name. */
EFI_STATUS host_file_rename(struct host_file *f, const CHAR16 *target);

#endif
