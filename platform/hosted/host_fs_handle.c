/* Hosted volume: the handles' operations under the shared EFI_FILE_PROTOCOL front end, the
 * TPL around host calls, and errno mapping. */
#include <errno.h>

#include "host_fs.h"
#include <ember/core/core.h>

const struct file_front_ops host_file_ops = {
    .tpl = HOST_FS_TPL,
    .label_max = HOST_LABEL_MAX,
    .open = host_file_open_name,
    .close = host_file_close,
    .delete = host_file_delete,
    .read = host_file_read,
    .write = host_file_write,
    .get_position = host_file_get_position,
    .set_position = host_file_set_position,
    .flush = host_file_flush,
    .file_info = host_file_info,
    .fs_info = host_file_fs_info,
    .volume_label = host_file_volume_label,
    .set_file_info = host_file_set_info,
    .set_label = host_file_set_label,
};

EFI_TPL host_fs_enter(void)
{
	return tpl_raise(HOST_FS_TPL);
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
