/* EFI_DISK_IO_PROTOCOL and EFI_DISK_IO2_PROTOCOL (UEFI 2.10, sections 13.7 and 13.8) over a
 * BlockIo: byte offsets and lengths of any alignment. Only the partial blocks at either end
 * go through a block buffer; everything between is one BlockIo call straight into the
 * caller's buffer (or through an aligned bounce buffer when the device needs IoAlign and
 * the caller's buffer lacks it). The Ex calls complete before they return and then signal
 * the token's event. */
#include "disk_io.h"
#include <ember/core/core.h>
#include <ember/lib/str.h>

#define STACK_BLOCK 4096 /* partial blocks up to this size use the stack */
#define STACK_ALIGN 64
#define BOUNCE_BYTES (1024 * 1024) /* chunk size when a bounce buffer is needed */

/* A buffer of size bytes aligned for the device; *raw is what to free (NULL: nothing). */
static UINT8 *aligned_alloc_for(EFI_BLOCK_IO_MEDIA *m, UINTN size, void **raw)
{
	UINTN align = m->IoAlign > 1 ? m->IoAlign : 1;
	UINT8 *p = pool_alloc(size + align);

	*raw = p;
	return p ? (UINT8 *)ALIGN_UP((uintptr_t)p, align) : NULL;
}

static bool aligned_for(EFI_BLOCK_IO_MEDIA *m, const void *buffer)
{
	return m->IoAlign <= 1 || IS_ALIGNED((uintptr_t)buffer, (uintptr_t)m->IoAlign);
}

/* Part of one block: [skip, skip+n) of block lba, read-modify-write when writing. */
static EFI_STATUS partial_block(EFI_BLOCK_IO_PROTOCOL *bio, UINT32 media_id, EFI_LBA lba,
				UINTN skip, UINTN n, UINT8 *buffer, bool write)
{
	EFI_BLOCK_IO_MEDIA *m = bio->Media;
	UINT8 stack_block[STACK_BLOCK] __attribute__((aligned(STACK_ALIGN)));
	void *raw = NULL;
	UINT8 *block = stack_block;
	EFI_STATUS status;

	if (m->BlockSize > STACK_BLOCK || m->IoAlign > STACK_ALIGN) {
		block = aligned_alloc_for(m, m->BlockSize, &raw);
		if (!block)
			return EFI_OUT_OF_RESOURCES;
	}
	status = bio->ReadBlocks(bio, media_id, lba, m->BlockSize, block);
	if (!EFI_ERROR(status) && write) {
		mem_copy(block + skip, buffer, n);
		status = bio->WriteBlocks(bio, media_id, lba, m->BlockSize, block);
	} else if (!EFI_ERROR(status)) {
		mem_copy(buffer, block + skip, n);
	}
	pool_free(raw);
	return status;
}

/* Whole blocks through an aligned bounce buffer, a chunk at a time. */
static EFI_STATUS bounced_blocks(EFI_BLOCK_IO_PROTOCOL *bio, UINT32 media_id, EFI_LBA lba,
				 UINTN size, UINT8 *buffer, bool write)
{
	EFI_BLOCK_IO_MEDIA *m = bio->Media;
	UINTN chunk = MAX((UINTN)m->BlockSize, ALIGN_DOWN((UINTN)BOUNCE_BYTES, m->BlockSize));
	void *raw;
	UINT8 *bounce = aligned_alloc_for(m, MIN(chunk, size), &raw);
	EFI_STATUS status = bounce ? EFI_SUCCESS : EFI_OUT_OF_RESOURCES;

	for (UINTN done = 0; done < size && !EFI_ERROR(status);) {
		UINTN n = MIN(chunk, size - done);
		if (write) {
			mem_copy(bounce, buffer + done, n);
			status = bio->WriteBlocks(bio, media_id, lba, n, bounce);
		} else {
			status = bio->ReadBlocks(bio, media_id, lba, n, bounce);
			if (!EFI_ERROR(status))
				mem_copy(buffer + done, bounce, n);
		}
		done += n;
		lba += n / m->BlockSize;
	}
	pool_free(raw);
	return status;
}

static EFI_STATUS whole_blocks(EFI_BLOCK_IO_PROTOCOL *bio, UINT32 media_id, EFI_LBA lba, UINTN size,
			       UINT8 *buffer, bool write)
{
	if (!aligned_for(bio->Media, buffer))
		return bounced_blocks(bio, media_id, lba, size, buffer, write);
	if (write)
		return bio->WriteBlocks(bio, media_id, lba, size, buffer);
	return bio->ReadBlocks(bio, media_id, lba, size, buffer);
}

/* The checks made before any I/O; the statuses a queued Ex request returns at once. */
static EFI_STATUS check_request(struct disk_io *d, UINT32 media_id, UINT64 offset, UINTN size,
				const void *buffer, bool write)
{
	EFI_BLOCK_IO_MEDIA *m = d->block_io->Media;
	UINT64 disk_bytes;

	if (!m->MediaPresent)
		return EFI_NO_MEDIA;
	if (media_id != m->MediaId)
		return EFI_MEDIA_CHANGED;
	if (write && m->ReadOnly)
		return EFI_WRITE_PROTECTED;
	if (!m->BlockSize || mul_overflows(m->LastBlock + 1, (UINT64)m->BlockSize, &disk_bytes))
		return EFI_DEVICE_ERROR;
	if (offset > disk_bytes || size > disk_bytes - offset || (size && !buffer))
		return EFI_INVALID_PARAMETER;
	return EFI_SUCCESS;
}

EFI_STATUS disk_io_transfer(struct disk_io *d, UINT32 media_id, UINT64 offset, UINTN size,
			    void *buffer, bool write)
{
	EFI_BLOCK_IO_PROTOCOL *bio = d->block_io;
	EFI_STATUS status = check_request(d, media_id, offset, size, buffer, write);
	UINT32 bs;
	EFI_LBA lba;
	UINTN skip, whole;
	UINT8 *p = buffer;

	if (EFI_ERROR(status) || !size)
		return status;
	bs = bio->Media->BlockSize;
	lba = offset / bs;
	skip = (UINTN)(offset % bs);
	if (skip || size < bs) {
		UINTN n = MIN(size, bs - skip);
		status = partial_block(bio, media_id, lba++, skip, n, p, write);
		p += n;
		size -= n;
	}
	whole = size - size % bs;
	if (!EFI_ERROR(status) && whole) {
		status = whole_blocks(bio, media_id, lba, whole, p, write);
		lba += whole / bs;
		p += whole;
		size -= whole;
	}
	if (!EFI_ERROR(status) && size)
		status = partial_block(bio, media_id, lba, 0, size, p, write);
	return status;
}

static EFI_STATUS EFIAPI read_disk(EFI_DISK_IO_PROTOCOL *this, UINT32 media_id, UINT64 offset,
				   UINTN size, VOID *buffer)
{
	struct disk_io *d = container_of(this, struct disk_io, disk_io);

	return disk_io_transfer(d, media_id, offset, size, buffer, false);
}

static EFI_STATUS EFIAPI write_disk(EFI_DISK_IO_PROTOCOL *this, UINT32 media_id, UINT64 offset,
				    UINTN size, VOID *buffer)
{
	struct disk_io *d = container_of(this, struct disk_io, disk_io);

	return disk_io_transfer(d, media_id, offset, size, buffer, true);
}

/* Runs an Ex request: blocking without an event; else the outcome goes to the token,
 * whose event is signalled, and only errors found before any I/O are returned. */
static EFI_STATUS finish_ex(EFI_DISK_IO2_TOKEN *token, EFI_STATUS status)
{
	if (!token || !token->Event)
		return status;
	token->TransactionStatus = status;
	event_signal(token->Event);
	return EFI_SUCCESS;
}

static EFI_STATUS transfer_ex(EFI_DISK_IO2_PROTOCOL *this, UINT32 media_id, UINT64 offset,
			      EFI_DISK_IO2_TOKEN *token, UINTN size, VOID *buffer, bool write)
{
	struct disk_io *d = container_of(this, struct disk_io, disk_io2);
	EFI_STATUS status;

	if (token && token->Event && !event_is_valid(token->Event))
		return EFI_INVALID_PARAMETER;
	status = check_request(d, media_id, offset, size, buffer, write);
	if (EFI_ERROR(status))
		return status;
	return finish_ex(token, disk_io_transfer(d, media_id, offset, size, buffer, write));
}

static EFI_STATUS EFIAPI read_disk_ex(EFI_DISK_IO2_PROTOCOL *this, UINT32 media_id, UINT64 offset,
				      EFI_DISK_IO2_TOKEN *token, UINTN size, VOID *buffer)
{
	return transfer_ex(this, media_id, offset, token, size, buffer, false);
}

static EFI_STATUS EFIAPI write_disk_ex(EFI_DISK_IO2_PROTOCOL *this, UINT32 media_id, UINT64 offset,
				       EFI_DISK_IO2_TOKEN *token, UINTN size, VOID *buffer)
{
	return transfer_ex(this, media_id, offset, token, size, buffer, true);
}

static EFI_STATUS EFIAPI flush_disk_ex(EFI_DISK_IO2_PROTOCOL *this, EFI_DISK_IO2_TOKEN *token)
{
	struct disk_io *d = container_of(this, struct disk_io, disk_io2);
	EFI_BLOCK_IO_PROTOCOL *bio = d->block_io;

	if (token && token->Event && !event_is_valid(token->Event))
		return EFI_INVALID_PARAMETER;
	if (!bio->Media->MediaPresent)
		return EFI_NO_MEDIA;
	if (bio->Media->ReadOnly)
		return finish_ex(token, EFI_SUCCESS);
	return finish_ex(token, bio->FlushBlocks(bio));
}

/* Nothing is ever pending: every request completes before its call returns. */
static EFI_STATUS EFIAPI cancel(EFI_DISK_IO2_PROTOCOL *this)
{
	return EFI_SUCCESS;
}

void disk_io_init(struct disk_io *d, EFI_BLOCK_IO_PROTOCOL *block_io)
{
	d->signature = DISK_IO_SIGNATURE;
	d->block_io = block_io;
	d->disk_io = (EFI_DISK_IO_PROTOCOL){EFI_DISK_IO_PROTOCOL_REVISION, read_disk, write_disk};
	d->disk_io2 = (EFI_DISK_IO2_PROTOCOL){EFI_DISK_IO2_PROTOCOL_REVISION, cancel, read_disk_ex,
					      write_disk_ex, flush_disk_ex};
}
