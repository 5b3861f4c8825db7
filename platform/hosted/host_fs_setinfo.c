/* Hosted volume: its part of EFI_FILE_PROTOCOL.SetInfo() of EFI_FILE_INFO (UEFI 2.10, 13.5.14,
 * 13.5.16): rename, resize, EFI_FILE_READ_ONLY and times. */
#include <errno.h>
#include <fcntl.h>
#include <time.h>
#include <unistd.h>

#include "host_fs.h"
#include <ember/core/core.h>
#include <ember/lib/str.h>

/* What a SetInfo(EFI_FILE_INFO) asks for, compared with the file as it is. */
struct file_change {
	CHAR16 *target; /* the normalised path FileName names */
	bool resize, rename, read_only_flip;
	struct timespec times[2]; /* access, modification; UTIME_OMIT when unchanged */
	EFI_FILE_INFO info;	  /* the request's fixed part */
};

static bool time_equal(const EFI_TIME *a, const EFI_TIME *b)
{
	return a->Year == b->Year && a->Month == b->Month && a->Day == b->Day &&
	       a->Hour == b->Hour && a->Minute == b->Minute && a->Second == b->Second &&
	       a->Nanosecond == b->Nanosecond;
}

/* One requested time: zero means "leave it" (13.5.16), else a local time to set. The time
 * zone is not applied: the host file keeps local wall-clock times like FAT does. */
static EFI_STATUS want_time(const EFI_TIME *want, const EFI_TIME *now, struct timespec *ts)
{
	struct tm tm = {0};

	ts->tv_sec = 0;
	ts->tv_nsec = UTIME_OMIT;
	if (mem_is_zero(want, sizeof(*want)))
		return EFI_SUCCESS;
	if (!file_front_time_valid(want))
		return EFI_INVALID_PARAMETER;
	if (time_equal(want, now))
		return EFI_SUCCESS;
	tm.tm_year = want->Year - 1900;
	tm.tm_mon = want->Month - 1;
	tm.tm_mday = want->Day;
	tm.tm_hour = want->Hour;
	tm.tm_min = want->Minute;
	tm.tm_sec = want->Second;
	tm.tm_isdst = -1;
	ts->tv_sec = mktime(&tm);
	ts->tv_nsec = want->Nanosecond;
	return EFI_SUCCESS;
}

/* Works out what changes; refuses what the spec forbids (13.5.14). */
static EFI_STATUS plan_change(struct host_file *f, const EFI_FILE_INFO *now, struct file_change *c)
{
	bool root = f->efi_path[1] == 0;
	EFI_STATUS status;

	if (c->info.Attribute & ~EFI_FILE_VALID_ATTR)
		return EFI_INVALID_PARAMETER;
	if ((c->info.Attribute ^ now->Attribute) & EFI_FILE_DIRECTORY)
		return EFI_ACCESS_DENIED;
	if (!mem_is_zero(&c->info.CreateTime, sizeof(EFI_TIME)) &&
	    !file_front_time_valid(&c->info.CreateTime))
		return EFI_INVALID_PARAMETER;
	status = want_time(&c->info.LastAccessTime, &now->LastAccessTime, &c->times[0]);
	if (!EFI_ERROR(status))
		status = want_time(&c->info.ModificationTime, &now->ModificationTime, &c->times[1]);
	if (EFI_ERROR(status))
		return status;
	/* A directory's FileSize is ignored (13.5.16). */
	c->resize = !f->is_dir && c->info.FileSize != now->FileSize;
	c->rename = str16_cmp(c->target, f->efi_path) != 0;
	c->read_only_flip = (c->info.Attribute ^ now->Attribute) & EFI_FILE_READ_ONLY;
	if (root && (c->rename || c->read_only_flip))
		return EFI_ACCESS_DENIED;
	/* A read-only open may change only the Attribute field. */
	if (!f->writable && (c->resize || c->rename || c->times[0].tv_nsec != UTIME_OMIT ||
			     c->times[1].tv_nsec != UTIME_OMIT))
		return EFI_ACCESS_DENIED;
	return EFI_SUCCESS;
}

static EFI_STATUS apply_change(struct host_file *f, const struct file_change *c)
{
	if (c->resize && ftruncate(f->fd, (off_t)c->info.FileSize) != 0)
		return host_fs_errno_status(errno);
	if ((c->times[0].tv_nsec != UTIME_OMIT || c->times[1].tv_nsec != UTIME_OMIT) &&
	    futimens(f->fd, c->times) != 0)
		return host_fs_errno_status(errno);
	if (c->read_only_flip) {
		EFI_STATUS status =
		    host_fs_set_read_only(f->fd, c->info.Attribute & EFI_FILE_READ_ONLY);

		if (EFI_ERROR(status))
			return status;
	}
	return c->rename ? host_file_rename(f, c->target) : EFI_SUCCESS;
}

EFI_STATUS host_file_set_info(struct file_front *front, const EFI_FILE_INFO *info,
			      const CHAR16 *name)
{
	struct host_file *f = host_file_of(front);
	/* The current EFI_FILE_INFO with an empty name. */
	UINT64 now[(SIZE_OF_EFI_FILE_INFO + sizeof(CHAR16) + 7) / 8];
	UINTN now_size = sizeof(now);
	struct file_change c = {.info = *info};
	EFI_STATUS status = host_fs_rename_target(f, name, &c.target);

	if (!EFI_ERROR(status) && f->volume->read_only)
		status = EFI_WRITE_PROTECTED;
	if (!EFI_ERROR(status))
		status = host_fs_file_info(f->fd, "", AT_EMPTY_PATH, u"", &now_size, now);
	if (!EFI_ERROR(status))
		status = plan_change(f, (const EFI_FILE_INFO *)now, &c);
	if (!EFI_ERROR(status))
		status = apply_change(f, &c);
	pool_free(c.target);
	return status;
}
