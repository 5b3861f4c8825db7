/* The checksums and states a writer of firmware volumes fills in (PI 1.8 volume 3, 3.2.1 and
 * 2.2.3): used by ember-fw and by the tests that build volumes. */
#include <ember/lib/fv.h>

void fv_put_size3(uint8_t size[3], uint32_t value)
{
	size[0] = (uint8_t)value;
	size[1] = (uint8_t)(value >> 8);
	size[2] = (uint8_t)(value >> 16);
}

void fv_seal_header(void *header)
{
	EFI_FIRMWARE_VOLUME_HEADER *h = header;

	h->Checksum = 0;
	h->Checksum = (uint16_t)(0x10000 - fv_sum16(h, h->HeaderLength));
}

void fv_seal_file(void *file, size_t file_size, uint8_t erased)
{
	EFI_FFS_FILE_HEADER *h = file;
	size_t header_size = h->Attributes & FFS_ATTRIB_LARGE_FILE ? sizeof(EFI_FFS_FILE_HEADER2)
								   : sizeof(EFI_FFS_FILE_HEADER);
	uint8_t state = EFI_FILE_HEADER_CONSTRUCTION | EFI_FILE_HEADER_VALID | EFI_FILE_DATA_VALID;

	h->IntegrityCheck.Header = 0;
	h->IntegrityCheck.File = 0;
	h->State = 0;
	h->IntegrityCheck.Header = (uint8_t)(0x100 - fv_sum8(h, header_size));
	if (h->Attributes & FFS_ATTRIB_CHECKSUM)
		h->IntegrityCheck.File = (uint8_t)(0x100 - fv_sum8((uint8_t *)file + header_size,
								   file_size - header_size));
	else
		h->IntegrityCheck.File = FFS_FIXED_CHECKSUM;
	/* With erase polarity 1, a bit is set by clearing it. */
	h->State = erased ? (uint8_t)~state : state;
}
