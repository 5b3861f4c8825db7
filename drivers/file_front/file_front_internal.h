/* Between the files of the file-system front end (file_front.c, file_front_info.c). */
#ifndef DRIVERS_FILE_FRONT_INTERNAL_H
#define DRIVERS_FILE_FRONT_INTERNAL_H

#include <ember/drivers/file_front.h>

/* Raises to the handle's TPL; *status is then what ops->usable says of the handle. */
EFI_TPL file_front_enter(struct file_front *f, EFI_STATUS *status);
void file_front_leave(EFI_TPL old);

EFI_STATUS EFIAPI file_front_get_info(EFI_FILE_PROTOCOL *This, EFI_GUID *InformationType,
				      UINTN *BufferSize, VOID *Buffer);
EFI_STATUS EFIAPI file_front_set_info(EFI_FILE_PROTOCOL *This, EFI_GUID *InformationType,
				      UINTN BufferSize, VOID *Buffer);

#endif
