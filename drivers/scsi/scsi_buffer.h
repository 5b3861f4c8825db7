/* Buffers the SCSI drivers hand to a channel, aligned as its IoAlign asks. */
#ifndef DRIVERS_SCSI_BUFFER_H
#define DRIVERS_SCSI_BUFFER_H

#include <efi/types.h>

/* A zeroed pool buffer of size bytes aligned for IoAlign align (0 and 1: any); *raw is what
 * pool_free takes (NULL when the allocation failed). */
void *scsi_buffer_alloc(UINT32 align, UINTN size, void **raw);

#endif
