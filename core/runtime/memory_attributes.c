/* The memory attributes table (UEFI 2.10, 4.6.4): the runtime memory with the protections an
 * OS may give it. The firmware's runtime image is split into its code (EFI_MEMORY_RO) and
 * its data (EFI_MEMORY_XP), protected runtime driver images alike; runtime data is XP. Each entry
 * keeps the type of the memory-map range it lies in and never crosses one (Linux checks both). The
 * table is allocated at start and filled again when ExitBootServices succeeds, from the final map.
 */
#include "../services.h"
#include "../mem/memmap.h"
#include <ember/core/log.h>
#include <ember/lib/str.h>
#include <efi/memory_attributes_table.h>
#include <ember/lib/guids.h>

#define MAT_DESCRIPTOR_SIZE (sizeof(EFI_MEMORY_DESCRIPTOR) + sizeof(UINT64))
#define MAT_CAPACITY 128

static EFI_MEMORY_ATTRIBUTES_TABLE *mat;
static UINT64 rt_image_start, rt_image_code_end, rt_image_end;
static bool mat_overflow_said;

void runtime_image_declare(UINT64 start, UINT64 code_end, UINT64 end)
{
	rt_image_start = start;
	rt_image_code_end = code_end;
	rt_image_end = end;
}

static void add(UINT32 type, UINT64 start, UINT64 end, UINT64 protection)
{
	EFI_MEMORY_DESCRIPTOR *d;

	if (end <= start)
		return;
	if (mat->NumberOfEntries == MAT_CAPACITY) {
		if (!mat_overflow_said)
			log_warn("memory attributes table: more than %u runtime ranges\n",
				 MAT_CAPACITY);
		mat_overflow_said = true;
		return;
	}
	d = (EFI_MEMORY_DESCRIPTOR *)((UINT8 *)(mat + 1) +
				      mat->NumberOfEntries * MAT_DESCRIPTOR_SIZE);
	mem_set(d, 0, MAT_DESCRIPTOR_SIZE);
	d->Type = type;
	d->PhysicalStart = start;
	d->NumberOfPages = (end - start) >> EFI_PAGE_SHIFT;
	d->Attribute = EFI_MEMORY_RUNTIME | protection;
	mat->NumberOfEntries++;
}

/* Runtime code is described where its layout is known: the declared image, and runtime
 * driver images the loader protected (their ranges carry RO for code, XP for the rest,
 * core/image/protect.c). Other runtime code keeps the mapping the OS gives it by
 * default. */
static void add_code(const struct mem_range *r)
{
	UINT64 start = MAX(r->start, rt_image_start), end = MIN(mem_range_end(r), rt_image_end);
	UINT64 protection = r->protection & (EFI_MEMORY_RO | EFI_MEMORY_XP);

	if (start >= end) {
		if (protection)
			add(r->type, r->start, mem_range_end(r), protection);
		return;
	}
	add(r->type, start, MIN(end, rt_image_code_end), EFI_MEMORY_RO);
	add(r->type, MAX(start, rt_image_code_end), end, EFI_MEMORY_XP);
}

/* Fills the table from the memory map as it is now. */
void runtime_memory_attributes_update(void)
{
	size_t n;
	const struct mem_range *r;

	if (!mat)
		return;
	r = memmap_ranges(&n);
	mat->NumberOfEntries = 0;
	for (size_t i = 0; i < n; i++) {
		if (!(r[i].attribute & EFI_MEMORY_RUNTIME))
			continue;
		if (r[i].type == EfiRuntimeServicesCode)
			add_code(&r[i]);
		else if (r[i].type == EfiRuntimeServicesData)
			add(r[i].type, r[i].start, mem_range_end(&r[i]), EFI_MEMORY_XP);
	}
}

EFI_STATUS memory_attributes_install(void)
{
	EFI_STATUS status;

	mat = pool_alloc_typed(EfiRuntimeServicesData,
			       sizeof(*mat) + MAT_CAPACITY * MAT_DESCRIPTOR_SIZE);
	if (!mat)
		return EFI_OUT_OF_RESOURCES;
	*mat = (EFI_MEMORY_ATTRIBUTES_TABLE){EFI_MEMORY_ATTRIBUTES_TABLE_VERSION, 0,
					     MAT_DESCRIPTOR_SIZE, 0};
	status = config_table_install(&efi_memory_attributes_table_guid, mat);
	if (EFI_ERROR(status)) {
		pool_free(mat);
		mat = NULL;
		return status;
	}
	runtime_memory_attributes_update();
	return EFI_SUCCESS;
}
