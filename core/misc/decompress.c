/* EFI_DECOMPRESS_PROTOCOL (UEFI 2.10, 19.5) over lib/uefi_decompress.c, published once on
 * its own handle, and core_decompress for the firmware's own compressed data (option ROM
 * images). GetInfo and Decompress answer EFI_INVALID_PARAMETER for anything the header or
 * the data cannot support: the specification has no other error for them. */
#define LOG_PREFIX "decompress: "
#include <ember/core/core.h>
#include <ember/core/decompress.h>
#include <ember/core/init.h>
#include <ember/core/log.h>
#include <ember/lib/guids.h>
#include <ember/lib/uefi_decompress.h>
#include <efi/protocol/decompress.h>

static EFI_STATUS EFIAPI decompress_get_info(EFI_DECOMPRESS_PROTOCOL *This, VOID *Source,
					     UINT32 SourceSize, UINT32 *DestinationSize,
					     UINT32 *ScratchSize)
{
	if (!Source || !DestinationSize || !ScratchSize)
		return EFI_INVALID_PARAMETER;
	if (uefi_decompress_get_info(Source, SourceSize, DestinationSize, ScratchSize) !=
	    UEFI_DECOMPRESS_OK)
		return EFI_INVALID_PARAMETER;
	return EFI_SUCCESS;
}

static EFI_STATUS EFIAPI decompress_decompress(EFI_DECOMPRESS_PROTOCOL *This, VOID *Source,
					       UINT32 SourceSize, VOID *Destination,
					       UINT32 DestinationSize, VOID *Scratch,
					       UINT32 ScratchSize)
{
	enum uefi_decompress_result r;

	if (!Source || !Destination || !Scratch)
		return EFI_INVALID_PARAMETER;
	r = uefi_decompress(Source, SourceSize, Destination, DestinationSize, Scratch, ScratchSize);
	if (r != UEFI_DECOMPRESS_OK) {
		log_debug("Decompress: %s\n", uefi_decompress_result_name(r));
		return EFI_INVALID_PARAMETER;
	}
	return EFI_SUCCESS;
}

static EFI_DECOMPRESS_PROTOCOL decompress_protocol = {decompress_get_info, decompress_decompress};

EFI_STATUS core_decompress(const void *src, UINTN size, void **out, UINTN *out_size)
{
	uint32_t dst_size, scratch_size;
	enum uefi_decompress_result r;
	void *dst, *scratch;

	r = uefi_decompress_get_info(src, size, &dst_size, &scratch_size);
	if (r != UEFI_DECOMPRESS_OK) {
		log_debug("%s\n", uefi_decompress_result_name(r));
		return EFI_INVALID_PARAMETER;
	}
	dst = pool_alloc_typed(EfiBootServicesData, dst_size ? dst_size : 1);
	scratch = pool_alloc_typed(EfiBootServicesData, scratch_size);
	if (!dst || !scratch) {
		log_debug("no memory for %u bytes\n", dst_size);
		pool_free(scratch);
		pool_free(dst);
		return EFI_OUT_OF_RESOURCES;
	}
	r = uefi_decompress(src, size, dst, dst_size, scratch, scratch_size);
	pool_free(scratch);
	if (r != UEFI_DECOMPRESS_OK) {
		log_debug("corrupt data: %s\n", uefi_decompress_result_name(r));
		pool_free(dst);
		return EFI_INVALID_PARAMETER;
	}
	*out = dst;
	*out_size = dst_size;
	return EFI_SUCCESS;
}

static EFI_STATUS decompress_publish(void)
{
	static EFI_HANDLE handle;
	EFI_STATUS status;

	if (handle)
		return EFI_SUCCESS;
	status = protocol_install(&handle, &efi_decompress_protocol_guid, &decompress_protocol);
	if (EFI_ERROR(status))
		log_debug("installing the protocol: %r\n", status);
	return status;
}
EMBER_INIT(INIT_EARLY, decompress_publish);
