/* Hosted volume: EFI_FILE_PROTOCOL.SetInfo() (UEFI 2.10, 13.5.14, 13.5.16 - 13.5.18):
 * rename, resize, EFI_FILE_READ_ONLY, times, and the volume label. */
#include <errno.h>
#include <fcntl.h>
#include <time.h>
#include <unistd.h>

#include "host_fs.h"
#include <ember/core.h>
#include <ember/str.h>

static const EFI_GUID file_info_guid = EFI_FILE_INFO_ID;
static const EFI_GUID fs_info_guid = EFI_FILE_SYSTEM_INFO_ID;
static const EFI_GUID label_guid = EFI_FILE_SYSTEM_VOLUME_LABEL_ID;

/* What a SetInfo(EFI_FILE_INFO) asks for, compared with the file as it is. */
struct file_change {
	CHAR16 *target; /* the normalised path FileName names */
	bool resize, rename, read_only_flip;
	struct timespec times[2]; /* access, modification; UTIME_OMIT when unchanged */
	EFI_FILE_INFO info;	  /* the request's fixed part */
};

/* Copies the request out of the caller's buffer, checking its sizes. */
static EFI_STATUS read_request(struct host_file *f, UINTN size, const VOID *buffer,
			       struct file_change *c)
{
	const UINTN min = SIZE_OF_EFI_FILE_INFO + sizeof(CHAR16);
	size_t units;
	CHAR16 *name;
	EFI_STATUS status;

	if (size < min)
		return EFI_BAD_BUFFER_SIZE;
	mem_copy(&c->info, buffer, SIZE_OF_EFI_FILE_INFO);
	if (c->info.Size < min || c->info.Size > size)
		return EFI_BAD_BUFFER_SIZE;
	units = (c->info.Size - SIZE_OF_EFI_FILE_INFO) / sizeof(CHAR16);
	name = pool_alloc((units + 1) * sizeof(CHAR16));
	if (!name)
		return EFI_OUT_OF_RESOURCES;
	mem_copy(name, (const char *)buffer + SIZE_OF_EFI_FILE_INFO, units * sizeof(CHAR16));
	if (str16_nlen(name, units) == units)
		status = EFI_BAD_BUFFER_SIZE; /* FileName is not terminated inside Size */
	else
		status = host_fs_rename_target(f, name, &c->target);
	pool_free(name);
	return status;
}

static bool time_valid(const EFI_TIME *t)
{
	static const UINT8 days[] = {31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};

	return t->Year >= 1900 && t->Year <= 9999 && t->Month >= 1 && t->Month <= 12 &&
	       t->Day >= 1 && t->Day <= days[t->Month - 1] && t->Hour < 24 && t->Minute < 60 &&
	       t->Second < 60 && t->Nanosecond < 1000000000 &&
	       (t->TimeZone == EFI_UNSPECIFIED_TIMEZONE ||
		(t->TimeZone >= -1440 && t->TimeZone <= 1440));
}

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
	if (!time_valid(want))
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
	if (!mem_is_zero(&c->info.CreateTime, sizeof(EFI_TIME)) && !time_valid(&c->info.CreateTime))
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

static EFI_STATUS set_file_info(struct host_file *f, UINTN size, const VOID *buffer)
{
	/* The current EFI_FILE_INFO with an empty name. */
	UINT64 now[(SIZE_OF_EFI_FILE_INFO + sizeof(CHAR16) + 7) / 8];
	UINTN now_size = sizeof(now);
	struct file_change c = {0};
	EFI_STATUS status = read_request(f, size, buffer, &c);

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

static EFI_STATUS set_fs_info(struct host_file *f, UINTN size, const VOID *buffer)
{
	const UINTN min = SIZE_OF_EFI_FILE_SYSTEM_INFO + sizeof(CHAR16);

	if (size < min)
		return EFI_BAD_BUFFER_SIZE;
	return host_volume_set_label(
	    f->volume, (const CHAR16 *)((const char *)buffer + SIZE_OF_EFI_FILE_SYSTEM_INFO),
	    (size - SIZE_OF_EFI_FILE_SYSTEM_INFO) / sizeof(CHAR16));
}

EFI_STATUS EFIAPI host_file_set_info(EFI_FILE_PROTOCOL *This, EFI_GUID *InformationType,
				     UINTN BufferSize, VOID *Buffer)
{
	struct host_file *f = host_file_from(This);
	EFI_STATUS status;
	EFI_TPL old;

	if (!f || !InformationType || !Buffer)
		return EFI_INVALID_PARAMETER;
	old = host_fs_enter();
	if (guid_eq(InformationType, &file_info_guid))
		status = set_file_info(f, BufferSize, Buffer);
	else if (guid_eq(InformationType, &fs_info_guid))
		status = set_fs_info(f, BufferSize, Buffer);
	else if (guid_eq(InformationType, &label_guid))
		status =
		    BufferSize < sizeof(CHAR16)
			? EFI_BAD_BUFFER_SIZE
			: host_volume_set_label(f->volume, Buffer, BufferSize / sizeof(CHAR16));
	else
		status = EFI_UNSUPPORTED;
	host_fs_leave(old);
	return status;
}
