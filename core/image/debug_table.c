/* EFI_DEBUG_IMAGE_INFO_TABLE (UEFI 2.10, 18.4): the list of loaded images a debugger reads
 * to find their code, kept up to date at LoadImage and UnloadImage; and the two functions
 * a debugger breaks on to hear of each load and unload as it happens (ember-run --gdb,
 * scripts/gdb/ember.py). */
#define LOG_PREFIX "debug-image: "
#include "image.h"
#include <ember/core/log.h>
#include <ember/lib/guids.h>
#include <ember/lib/str.h>
#include <efi/debug_image_info.h>

#define GROWTH 16

static EFI_DEBUG_IMAGE_INFO_TABLE_HEADER header;
static UINT32 capacity;
static bool published;

/* Called with every image that was loaded, after its LoadedImage is installed. A debugger
 * breaks here: the arguments are in the registers of the System V ABI at the first
 * instruction. noinline and the empty asm keep the call and its arguments. */
__attribute__((noinline)) void image_debug_loaded_hook(const char *name, UINT64 base, UINT64 size,
						       UINT64 entry)
{
	__asm__ volatile("" : : "r"(name), "r"(base), "r"(size), "r"(entry) : "memory");
}

/* Called with every image about to be unloaded, before its pages are freed. */
__attribute__((noinline)) void image_debug_unloaded_hook(const char *name, UINT64 base)
{
	__asm__ volatile("" : : "r"(name), "r"(base) : "memory");
}

static bool grow(void)
{
	EFI_DEBUG_IMAGE_INFO *bigger = pool_alloc((capacity + GROWTH) * sizeof(*bigger));

	if (!bigger)
		return false;
	mem_copy(bigger, header.EfiDebugImageInfoTable, header.TableSize * sizeof(*bigger));
	/* The debugger sees either the old array or the new one, both whole. */
	header.EfiDebugImageInfoTable = bigger;
	capacity += GROWTH;
	return true;
}

static EFI_DEBUG_IMAGE_INFO_NORMAL *new_entry(struct image *img)
{
	EFI_DEBUG_IMAGE_INFO_NORMAL *entry = pool_alloc(sizeof(*entry));

	if (!entry)
		return NULL;
	entry->ImageInfoType = EFI_DEBUG_IMAGE_INFO_TYPE_NORMAL;
	entry->LoadedImageProtocolInstance = &img->loaded;
	entry->ImageHandle = img->handle;
	return entry;
}

void image_debug_add(struct image *img)
{
	EFI_DEBUG_IMAGE_INFO_NORMAL *entry;
	EFI_DEBUG_IMAGE_INFO *old = NULL;

	if (!published &&
	    !EFI_ERROR(config_table_install(&efi_debug_image_info_table_guid, &header)))
		published = true;
	header.UpdateStatus |= EFI_DEBUG_IMAGE_INFO_UPDATE_IN_PROGRESS;
	entry = new_entry(img);
	if (entry && header.TableSize == capacity) {
		old = header.EfiDebugImageInfoTable;
		if (!grow()) {
			pool_free(entry);
			entry = NULL;
			old = NULL;
		}
	}
	if (entry) {
		header.EfiDebugImageInfoTable[header.TableSize].NormalImage = entry;
		header.TableSize++;
		header.UpdateStatus |= EFI_DEBUG_IMAGE_INFO_TABLE_MODIFIED;
	} else {
		log_debug("no memory to list %s in the debug image table\n", img->name);
	}
	header.UpdateStatus &= ~(UINT32)EFI_DEBUG_IMAGE_INFO_UPDATE_IN_PROGRESS;
	pool_free(old);
	image_debug_loaded_hook(img->name, img->pages_base, img->pe.size_of_image,
				(UINT64)(uintptr_t)img->entry);
}

void image_debug_renamed(struct image *img)
{
	image_debug_loaded_hook(img->name, img->pages_base, img->pe.size_of_image,
				(UINT64)(uintptr_t)img->entry);
}

void image_debug_remove(struct image *img)
{
	EFI_DEBUG_IMAGE_INFO *table = header.EfiDebugImageInfoTable;
	EFI_DEBUG_IMAGE_INFO_NORMAL *gone = NULL;

	image_debug_unloaded_hook(img->name, img->pages_base);
	header.UpdateStatus |= EFI_DEBUG_IMAGE_INFO_UPDATE_IN_PROGRESS;
	for (UINT32 i = 0; i < header.TableSize; i++) {
		if (table[i].NormalImage->LoadedImageProtocolInstance != &img->loaded)
			continue;
		/* The last entry fills the hole: the array stays without gaps. */
		gone = table[i].NormalImage;
		table[i] = table[header.TableSize - 1];
		header.TableSize--;
		header.UpdateStatus |= EFI_DEBUG_IMAGE_INFO_TABLE_MODIFIED;
		break;
	}
	header.UpdateStatus &= ~(UINT32)EFI_DEBUG_IMAGE_INFO_UPDATE_IN_PROGRESS;
	pool_free(gone);
}
