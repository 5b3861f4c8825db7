/* The simulated NOR flash, mounting and reading helpers for the variable store's tests. */
#include <stdlib.h>
#include <string.h>

#include "test_varstore.h"
#include <ember/lib/str.h>

static EFI_STATUS sim_read(struct flash_device *f, UINT32 offset, void *buffer, UINT32 size)
{
	struct nor_sim *sim = (struct nor_sim *)f;

	if (offset > f->size || size > f->size - offset)
		return EFI_INVALID_PARAMETER;
	memcpy(buffer, sim->bytes + offset, size);
	return EFI_SUCCESS;
}

static EFI_STATUS sim_program(struct flash_device *f, UINT32 offset, const void *data, UINT32 size)
{
	struct nor_sim *sim = (struct nor_sim *)f;
	const UINT8 *src = data;

	if (offset > f->size || size > f->size - offset)
		return EFI_INVALID_PARAMETER;
	if (sim->fail_writes)
		return EFI_DEVICE_ERROR;
	if (sim->hook)
		sim->hook(sim, NOR_PROGRAM, offset, data, size, sim->hook_ctx);
	sim->steps++;
	for (UINT32 i = 0; i < size; i++) {
		if (src[i] & ~sim->bytes[offset + i])
			sim->violations++;
		sim->bytes[offset + i] &= src[i];
	}
	return EFI_SUCCESS;
}

static EFI_STATUS sim_erase(struct flash_device *f, UINT32 offset)
{
	struct nor_sim *sim = (struct nor_sim *)f;

	if (offset % f->block_size || offset >= f->size)
		return EFI_INVALID_PARAMETER;
	if (sim->fail_writes)
		return EFI_DEVICE_ERROR;
	if (sim->hook)
		sim->hook(sim, NOR_ERASE, offset, NULL, f->block_size, sim->hook_ctx);
	sim->steps++;
	memset(sim->bytes + offset, 0xff, f->block_size);
	return EFI_SUCCESS;
}

void nor_init(struct nor_sim *sim, UINT32 size, UINT32 block_size)
{
	*sim = (struct nor_sim){
	    .dev = {size, block_size, sim_read, sim_program, sim_erase},
	    .bytes = malloc(size),
	};
	memset(sim->bytes, 0xff, size);
}

void nor_free(struct nor_sim *sim)
{
	free(sim->bytes);
	sim->bytes = NULL;
}

void nor_copy(struct nor_sim *dst, const struct nor_sim *src)
{
	if (!dst->bytes || dst->dev.size != src->dev.size) {
		nor_free(dst);
		nor_init(dst, src->dev.size, src->dev.block_size);
	}
	memcpy(dst->bytes, src->bytes, src->dev.size);
	dst->hook = NULL;
	dst->fail_writes = false;
}

/* A half-programmed cell clears only some of the bits it was asked to; a half-erased one
 * sets only some. */
static const UINT8 half_masks[] = {0x55, 0xaa, 0x0f, 0xf0, 0x01, 0x80};

void nor_tear(struct nor_sim *sim, enum nor_op op, UINT32 offset, const void *data, UINT32 size,
	      UINT32 variant)
{
	UINT32 cut = size ? (variant * 2654435761u) % size : 0;
	UINT8 half = half_masks[variant % sizeof(half_masks)];
	UINT8 *b = sim->bytes + offset;
	const UINT8 *src = data;

	for (UINT32 i = 0; i < cut; i++)
		b[i] = op == NOR_ERASE ? 0xff : (b[i] & src[i]);
	if (cut < size)
		b[cut] = op == NOR_ERASE ? (b[cut] | half) : (b[cut] & (src[cut] | half));
}

/* Service memory is recycled: the power-loss test mounts tens of thousands of times. */
static struct {
	void *mem[4];
	UINTN size[4];
	int count;
} spare;

EFI_STATUS test_vars_mount(struct test_vars *t, struct flash_device *flash, UINT32 flags)
{
	UINTN size = var_service_mem_size(flash->size);

	t->mem = NULL;
	for (int i = 0; i < spare.count; i++)
		if (spare.size[i] == size) {
			t->mem = spare.mem[i];
			spare.mem[i] = spare.mem[--spare.count];
			spare.size[i] = spare.size[spare.count];
			break;
		}
	if (!t->mem)
		t->mem = malloc(size);
	t->size = size;
	return var_service_init(&t->svc, flash, t->mem, size, flags);
}

void test_vars_unmount(struct test_vars *t)
{
	if (t->mem && spare.count < 4) {
		spare.mem[spare.count] = t->mem;
		spare.size[spare.count++] = t->size;
	} else {
		free(t->mem);
	}
	t->mem = NULL;
}

EFI_STATUS test_store_mount(struct test_store *t, struct flash_device *flash, UINT32 flags)
{
	UINTN size = vstore_mem_size(flash->size);

	t->mem = malloc(size);
	return vstore_mount(&t->s, flash, t->mem, size, flags);
}

void test_store_unmount(struct test_store *t)
{
	free(t->mem);
	t->mem = NULL;
}

const char *test_store_read_str(struct vstore *s, const CHAR16 *name, const EFI_GUID *guid)
{
	static char buf[4096];
	UINT32 e = vstore_find(s, name, (UINT32)str16_size(name), guid);
	UINT32 n;

	if (e == VSTORE_NONE)
		return "";
	n = vstore_entry(s, e)->data_size;
	if (n >= sizeof(buf) || EFI_ERROR(vstore_read_data(s, e, 0, buf, n)))
		return "<error>";
	buf[n] = 0;
	return buf;
}

EFI_GUID test_var_guid(UINT32 n)
{
	return (EFI_GUID){
	    0x6d2f4a11 + n, 0x8c1e, 0x4b7a, {0x9e, 0x3d, 0x52, 0x10, 0xa4, 0x77, 0x0c, (UINT8)n}};
}

static EFI_STATUS probe_read(struct flash_device *f, UINT32 offset, void *buffer, UINT32 size)
{
	struct probe_flash *p = (struct probe_flash *)f;

	if (p->fail_from && offset + size > p->fail_from)
		return EFI_DEVICE_ERROR;
	p->read_bytes += size;
	return p->inner->dev.read(&p->inner->dev, offset, buffer, size);
}

static EFI_STATUS probe_program(struct flash_device *f, UINT32 offset, const void *data,
				UINT32 size)
{
	struct probe_flash *p = (struct probe_flash *)f;

	return p->inner->dev.program(&p->inner->dev, offset, data, size);
}

static EFI_STATUS probe_erase(struct flash_device *f, UINT32 offset)
{
	struct probe_flash *p = (struct probe_flash *)f;

	return p->inner->dev.erase(&p->inner->dev, offset);
}

struct probe_flash probe_of(struct nor_sim *f)
{
	return (struct probe_flash){
	    {f->dev.size, f->dev.block_size, probe_read, probe_program, probe_erase}, f, 0, 0};
}
