/* What the volume protocol and the dispatcher of core/fv share. */
#ifndef CORE_FV_INTERNAL_H
#define CORE_FV_INTERNAL_H

#include <ember/core/core.h>
#include <ember/core/fv.h>
#include <ember/lib/fv.h>
#include <ember/lib/util.h>
#include <efi/protocol/device_path.h>
#include <efi/protocol/firmware_volume2.h>

#define FV_INSTANCE_SIGNATURE SIGNATURE_32('F', 'V', '2', 'i')
#define FV_MAX_VOLUMES 4

struct fv_instance {
	UINT32 signature;
	EFI_FIRMWARE_VOLUME2_PROTOCOL proto;
	struct fv_volume vol;
	EFI_HANDLE handle;
	struct {
		MEDIA_FW_VOL_DEVICE_PATH fv;
		EFI_DEVICE_PATH_PROTOCOL end;
	} __attribute__((packed)) path;
};

extern struct fv_instance *fv_instances[FV_MAX_VOLUMES];
extern UINTN fv_instance_count;
extern const struct fv_memory fv_pool_memory;

/* The file named name of a volume; EFI_DEVICE_ERROR when it is damaged. */
EFI_STATUS fv_find_file(const struct fv_instance *fv, const EFI_GUID *name, struct fv_file *file);
/* The volume published on handle, or NULL. */
struct fv_instance *fv_instance_on(EFI_HANDLE handle);

#endif
