/* Hosted volume: EFI_FILE_INFO from host file status for EFI_FILE_PROTOCOL.GetInfo() (UEFI
 * 2.10, 13.5.13, 13.5.16). Times are local time with an unspecified time zone. */
#include <errno.h>
#include <fcntl.h>
#include <time.h>

#include "host_fs.h"
#include <ember/lib/path.h>
#include <ember/lib/str.h>

void host_fs_time_to_efi(const struct timespec *ts, EFI_TIME *time)
{
	struct tm tm;

	mem_set(time, 0, sizeof(*time));
	if (!localtime_r(&ts->tv_sec, &tm))
		return;
	time->Year = (UINT16)(tm.tm_year + 1900);
	time->Month = (UINT8)(tm.tm_mon + 1);
	time->Day = (UINT8)tm.tm_mday;
	time->Hour = (UINT8)tm.tm_hour;
	time->Minute = (UINT8)tm.tm_min;
	/* A leap second (60) is outside EFI_TIME's range. */
	time->Second = (UINT8)MIN(tm.tm_sec, 59);
	time->Nanosecond = (UINT32)ts->tv_nsec;
	time->TimeZone = EFI_UNSPECIFIED_TIMEZONE;
}

static void stamp_to_efi(const struct statx_timestamp *stamp, EFI_TIME *time)
{
	struct timespec ts = {.tv_sec = stamp->tv_sec, .tv_nsec = stamp->tv_nsec};

	host_fs_time_to_efi(&ts, time);
}

static void fill_info(const struct statx *stx, EFI_FILE_INFO *info)
{
	bool dir = S_ISDIR(stx->stx_mode);

	/* A directory's size is its contents (13.5.16); FAT-like, it reports none. */
	info->FileSize = dir ? 0 : stx->stx_size;
	info->PhysicalSize = stx->stx_blocks * 512;
	stamp_to_efi(stx->stx_mask & STATX_BTIME ? &stx->stx_btime : &stx->stx_mtime,
		     &info->CreateTime);
	stamp_to_efi(&stx->stx_atime, &info->LastAccessTime);
	stamp_to_efi(&stx->stx_mtime, &info->ModificationTime);
	info->Attribute = dir ? EFI_FILE_DIRECTORY : 0;
	if ((stx->stx_mode & 0222) == 0)
		info->Attribute |= EFI_FILE_READ_ONLY;
}

EFI_STATUS host_fs_file_info(int dirfd, const char *path, int flags, const CHAR16 *name,
			     UINTN *size, VOID *buffer)
{
	UINTN needed = SIZE_OF_EFI_FILE_INFO + str16_size(name);
	EFI_FILE_INFO info = {0};
	struct statx stx;

	if (statx(dirfd, path, flags, STATX_BASIC_STATS | STATX_BTIME, &stx) != 0)
		return host_fs_errno_status(errno);
	if (!S_ISREG(stx.stx_mode) && !S_ISDIR(stx.stx_mode))
		return EFI_ACCESS_DENIED;
	if (*size < needed) {
		*size = needed;
		return EFI_BUFFER_TOO_SMALL;
	}
	fill_info(&stx, &info);
	info.Size = needed;
	/* The caller's buffer need not be aligned. */
	mem_copy(buffer, &info, SIZE_OF_EFI_FILE_INFO);
	mem_copy((char *)buffer + SIZE_OF_EFI_FILE_INFO, name, str16_size(name));
	*size = needed;
	return EFI_SUCCESS;
}

EFI_STATUS host_file_info(struct file_front *front, UINTN *size, void *buffer)
{
	struct host_file *f = host_file_of(front);

	return host_fs_file_info(f->fd, "", AT_EMPTY_PATH, path_last(f->efi_path), size, buffer);
}
