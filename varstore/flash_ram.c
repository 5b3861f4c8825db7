/* A flash over ordinary memory, with NOR semantics: programming ANDs, erasing sets a
 * block to 0xFF. The volatile variable store and every host-side store use it. */
#include <ember/core/flash.h>
#include <ember/lib/str.h>
#include <ember/lib/util.h>

static bool in_range(const struct flash_device *f, UINT32 offset, UINT32 size)
{
	return offset <= f->size && size <= f->size - offset;
}

static EFI_STATUS ram_read(struct flash_device *f, UINT32 offset, void *buffer, UINT32 size)
{
	struct flash_ram *ram = container_of(f, struct flash_ram, dev);

	if (!in_range(f, offset, size))
		return EFI_INVALID_PARAMETER;
	mem_copy(buffer, ram->bytes + offset, size);
	return EFI_SUCCESS;
}

static EFI_STATUS ram_program(struct flash_device *f, UINT32 offset, const void *data, UINT32 size)
{
	struct flash_ram *ram = container_of(f, struct flash_ram, dev);
	const UINT8 *src = data;
	UINT8 *dst;

	if (!in_range(f, offset, size))
		return EFI_INVALID_PARAMETER;
	dst = ram->bytes + offset;
	for (UINT32 i = 0; i < size; i++)
		dst[i] &= src[i];
	return EFI_SUCCESS;
}

static EFI_STATUS ram_erase(struct flash_device *f, UINT32 offset)
{
	struct flash_ram *ram = container_of(f, struct flash_ram, dev);

	if (offset % f->block_size || !in_range(f, offset, f->block_size))
		return EFI_INVALID_PARAMETER;
	mem_set(ram->bytes + offset, 0xff, f->block_size);
	return EFI_SUCCESS;
}

void flash_ram_init(struct flash_ram *ram, void *bytes, UINT32 size, UINT32 block_size)
{
	ram->dev = (struct flash_device){
	    .size = size,
	    .block_size = block_size,
	    .read = ram_read,
	    .program = ram_program,
	    .erase = ram_erase,
	};
	ram->bytes = bytes;
}
