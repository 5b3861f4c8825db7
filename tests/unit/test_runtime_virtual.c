/* SetVirtualAddressMap and ConvertPointer (core/runtime/virtual.c, UEFI 2.10 8.4), after a
 * real ExitBootServices in a process of its own: refused before ExitBootServices, after a
 * first success, for malformed maps and for maps that leave a runtime range out; on success
 * the VIRTUAL_ADDRESS_CHANGE notifications run, ConvertPointer works while they do, and the
 * system table's pointers into runtime memory move (its CRC recomputed). */
#include <stdlib.h>
#include <string.h>

#include "support/test.h"
#include "../../core/services.h"
#include <ember/lib/crc32.h>

#define OFFSET 0x7f0000000000ULL /* where the "OS" maps the runtime ranges */

static UINT64 map_shift = OFFSET; /* VirtualStart - PhysicalStart in virtual_map's maps */

static EFI_EVENT group_event, typed_event;
static unsigned group_calls, typed_calls;
static void *runtime_pointer, *boot_pointer;
static EFI_STATUS convert_status, boot_convert_status, null_status, optional_status;

static void EFIAPI on_group(EFI_EVENT event, void *context)
{
	void *null = NULL;

	group_calls++;
	convert_status = efi_convert_pointer(0, &runtime_pointer);
	boot_convert_status = efi_convert_pointer(0, &boot_pointer);
	null_status = efi_convert_pointer(0, &null);
	optional_status = efi_convert_pointer(EFI_OPTIONAL_PTR, &null);
}

static void EFIAPI on_typed(EFI_EVENT event, void *context)
{
	typed_calls++;
}

/* The map the firmware reports, each runtime range given VirtualStart = physical + map_shift;
 * with leave_out, the first runtime range is missing. */
static EFI_MEMORY_DESCRIPTOR *virtual_map(UINTN *size, UINTN *desc_size, UINTN *key, bool leave_out)
{
	UINT32 version;
	UINT8 *map;
	UINTN out = 0;

	*size = 0;
	core_st->BootServices->GetMemoryMap(size, NULL, key, desc_size, &version);
	*size += 8 * *desc_size;
	map = malloc(*size);
	if (!map || EFI_ERROR(core_st->BootServices->GetMemoryMap(
			size, (EFI_MEMORY_DESCRIPTOR *)map, key, desc_size, &version)))
		return NULL;
	for (UINTN off = 0; off < *size; off += *desc_size) {
		EFI_MEMORY_DESCRIPTOR *d = (EFI_MEMORY_DESCRIPTOR *)(map + off);
		if (!(d->Attribute & EFI_MEMORY_RUNTIME))
			continue;
		if (leave_out) {
			leave_out = false;
			continue;
		}
		d->VirtualStart = d->PhysicalStart + map_shift;
		memmove(map + out, d, *desc_size);
		out += *desc_size;
	}
	*size = out;
	return (EFI_MEMORY_DESCRIPTOR *)map;
}

static bool crc_ok(EFI_TABLE_HEADER *h)
{
	UINT32 stored = h->CRC32, computed;

	h->CRC32 = 0;
	computed = crc32(h, h->HeaderSize);
	h->CRC32 = stored;
	return computed == stored;
}

static void exit_and_map(void)
{
	EFI_BOOT_SERVICES *bs = core_st->BootServices;
	UINTN size, desc_size, key, partial_size, partial_desc;
	EFI_MEMORY_DESCRIPTOR *map, *partial;
	EFI_RUNTIME_SERVICES *rt_before = core_st->RuntimeServices;
	void *runtime_data = NULL;
	static int boot_data;

	/* Not at runtime yet. */
	map = virtual_map(&size, &desc_size, &key, false);
	ASSERT(map != NULL);
	EXPECT_STATUS(
	    efi_set_virtual_address_map(size, desc_size, EFI_MEMORY_DESCRIPTOR_VERSION, map),
	    EFI_UNSUPPORTED);
	free(map);

	ASSERT_STATUS(bs->CreateEventEx(EVT_NOTIFY_SIGNAL, TPL_NOTIFY, on_group, NULL,
					&(EFI_GUID)EFI_EVENT_GROUP_VIRTUAL_ADDRESS_CHANGE,
					&group_event),
		      EFI_SUCCESS);
	ASSERT_STATUS(bs->CreateEvent(EVT_SIGNAL_VIRTUAL_ADDRESS_CHANGE, TPL_NOTIFY, on_typed, NULL,
				      &typed_event),
		      EFI_SUCCESS);
	runtime_data = pool_alloc_typed(EfiRuntimeServicesData, 64);
	ASSERT(runtime_data != NULL);
	runtime_pointer = (UINT8 *)runtime_data + 8;
	boot_pointer = &boot_data;
	partial = virtual_map(&partial_size, &partial_desc, &key, true);
	map = virtual_map(&size, &desc_size, &key, false);
	ASSERT(map && partial);
	ASSERT_STATUS(bs->ExitBootServices(core_image_handle, key), EFI_SUCCESS);

	/* Malformed maps. */
	EXPECT_STATUS(
	    efi_set_virtual_address_map(size, desc_size, EFI_MEMORY_DESCRIPTOR_VERSION, NULL),
	    EFI_INVALID_PARAMETER);
	EXPECT_STATUS(efi_set_virtual_address_map(size, desc_size, 7, map), EFI_INVALID_PARAMETER);
	EXPECT_STATUS(efi_set_virtual_address_map(size, sizeof(EFI_MEMORY_DESCRIPTOR) - 8,
						  EFI_MEMORY_DESCRIPTOR_VERSION, map),
		      EFI_INVALID_PARAMETER);
	EXPECT_STATUS(
	    efi_set_virtual_address_map(size - 1, desc_size, EFI_MEMORY_DESCRIPTOR_VERSION, map),
	    EFI_INVALID_PARAMETER);
	/* A runtime range left out: nothing happens. */
	EXPECT_STATUS(efi_set_virtual_address_map(partial_size, partial_desc,
						  EFI_MEMORY_DESCRIPTOR_VERSION, partial),
		      EFI_NO_MAPPING);
	EXPECT_EQ(group_calls, 0);
	EXPECT(core_st->RuntimeServices == rt_before);

	ASSERT_STATUS(
	    efi_set_virtual_address_map(size, desc_size, EFI_MEMORY_DESCRIPTOR_VERSION, map),
	    EFI_SUCCESS);
	EXPECT_EQ(group_calls, 1);
	EXPECT_EQ(typed_calls, 1);
	/* During the notifications: runtime pointers move, others are not found (8.4.2). */
	EXPECT_STATUS(convert_status, EFI_SUCCESS);
	EXPECT_EQ((UINTN)runtime_pointer, (UINTN)runtime_data + 8 + OFFSET);
	EXPECT_STATUS(boot_convert_status, EFI_NOT_FOUND);
	EXPECT(boot_pointer == &boot_data);
	EXPECT_STATUS(null_status, EFI_INVALID_PARAMETER);
	EXPECT_STATUS(optional_status, EFI_SUCCESS);
	EXPECT_STATUS(efi_convert_pointer(0, NULL), EFI_INVALID_PARAMETER);
	/* The system table now points at the runtime services where the OS mapped them. */
	EXPECT_EQ((UINTN)core_st->RuntimeServices, (UINTN)rt_before + OFFSET);
	EXPECT(crc_ok(&core_st->Hdr));
	EXPECT(crc_ok(&core_rt->Hdr));
	/* Once only, and ConvertPointer is over with the call. */
	void *again = (UINT8 *)runtime_data + 8;
	EXPECT_STATUS(efi_convert_pointer(0, &again), EFI_NOT_FOUND);
	EXPECT_STATUS(
	    efi_set_virtual_address_map(size, desc_size, EFI_MEMORY_DESCRIPTOR_VERSION, map),
	    EFI_UNSUPPORTED);
	EXPECT_EQ(group_calls, 1);
	free(map);
	free(partial);
}

TEST(runtime_set_virtual_address_map)
{
	RUN_ISOLATED(exit_and_map);
}

/* The firmware image's pointer slots (runtime_pointer_slots_declare), here five words of
 * runtime memory standing for its data: the marked ones that point into runtime memory
 * move, an unmarked word, a pointer to boot data and NULL stay. The map moves each range
 * up by a page only, so a new address still lies in the range: converting a slot twice
 * (a notification converts one too) would show. */
static UINT64 *slot_image;
static EFI_STATUS slot_convert_status;

static void EFIAPI convert_a_slot(EFI_EVENT event, void *context)
{
	slot_convert_status = efi_convert_pointer(0, (void **)&slot_image[2]);
}

static void map_with_slots(void)
{
	static int boot_data;
	const UINT8 slot_map[1] = {0x1d}; /* words 0, 2, 3 and 4 */
	UINTN size, desc_size, key;
	EFI_MEMORY_DESCRIPTOR *map;
	EFI_PHYSICAL_ADDRESS pages;
	EFI_EVENT event;
	UINT8 *target;

	ASSERT_STATUS(mem_allocate_pages(AllocateAnyPages, EfiRuntimeServicesData, 4, &pages),
		      EFI_SUCCESS);
	slot_image = (UINT64 *)(UINTN)pages;
	target = (UINT8 *)slot_image;
	slot_image[0] = (UINTN)(target + 8);
	slot_image[1] = (UINTN)(target + 16);
	slot_image[2] = (UINTN)(target + 24);
	slot_image[3] = (UINTN)&boot_data;
	slot_image[4] = 0;
	runtime_pointer_slots_declare((UINTN)slot_image, slot_map, sizeof(slot_map));
	ASSERT_STATUS(core_st->BootServices->CreateEvent(EVT_SIGNAL_VIRTUAL_ADDRESS_CHANGE,
							 TPL_NOTIFY, convert_a_slot, NULL, &event),
		      EFI_SUCCESS);
	map_shift = EFI_PAGE_SIZE;
	map = virtual_map(&size, &desc_size, &key, false);
	ASSERT(map != NULL);
	ASSERT_STATUS(core_st->BootServices->ExitBootServices(core_image_handle, key), EFI_SUCCESS);
	ASSERT_STATUS(
	    efi_set_virtual_address_map(size, desc_size, EFI_MEMORY_DESCRIPTOR_VERSION, map),
	    EFI_SUCCESS);
	EXPECT_STATUS(slot_convert_status, EFI_SUCCESS);
	EXPECT_EQ(slot_image[0], (UINTN)(target + 8) + EFI_PAGE_SIZE);
	EXPECT_EQ(slot_image[1], (UINTN)(target + 16));
	EXPECT_EQ(slot_image[2], (UINTN)(target + 24) + EFI_PAGE_SIZE);
	EXPECT_EQ(slot_image[3], (UINTN)&boot_data);
	EXPECT_EQ(slot_image[4], 0);
	free(map);
}

TEST(runtime_set_virtual_address_map_converts_pointer_slots)
{
	RUN_ISOLATED(map_with_slots);
}
