/* Hosted volume: checking This pointers, TPL around host calls, errno mapping, and the
 * completion of EFI_FILE_IO_TOKEN requests. */
#include <errno.h>

#include "host_fs.h"
#include <ember/core.h>

struct host_file *host_file_from(EFI_FILE_PROTOCOL *file)
{
	struct host_file *f;

	if (!file)
		return NULL;
	f = container_of(file, struct host_file, file);
	if (!mem_is_allocated(f, sizeof(*f)) || f->signature != HOST_FILE_SIGNATURE)
		return NULL;
	return f;
}

EFI_TPL host_fs_enter(void)
{
	/* tpl_raise leaves a higher TPL alone, so callers above TPL_NOTIFY are unaffected. */
	return tpl_raise(TPL_NOTIFY);
}

void host_fs_leave(EFI_TPL old)
{
	tpl_restore(old);
}

EFI_STATUS host_fs_errno_status(int err)
{
	switch (err) {
	case ENOENT:
	case ENOTDIR:
	case ELOOP:
		return EFI_NOT_FOUND;
	case EACCES:
	case EPERM:
	case EEXIST:
	case ENOTEMPTY:
	case EISDIR:
	case EBUSY:
	case EINVAL:
	case EXDEV:
	case ETXTBSY:
		return EFI_ACCESS_DENIED;
	case EROFS:
		return EFI_WRITE_PROTECTED;
	case ENOSPC:
	case EDQUOT:
	case EFBIG:
		return EFI_VOLUME_FULL;
	case ENOMEM:
	case EMFILE:
	case ENFILE:
		return EFI_OUT_OF_RESOURCES;
	case ENAMETOOLONG:
		return EFI_INVALID_PARAMETER;
	default:
		return EFI_DEVICE_ERROR;
	}
}

bool host_fs_token_ok(const EFI_FILE_IO_TOKEN *token)
{
	/* event_signal trusts its argument; this catches NULL-ish and wild pointers only. */
	return token && (!token->Event || event_is_valid(token->Event));
}

EFI_STATUS host_fs_complete(EFI_FILE_IO_TOKEN *token, EFI_STATUS status)
{
	token->Status = status;
	if (!token->Event)
		return status; /* blocking I/O */
	/* The request completed before returning; "queued" succeeded, the outcome is in
	 * the token. The notify function runs when the caller's TPL is restored. */
	event_signal(token->Event);
	return EFI_SUCCESS;
}
