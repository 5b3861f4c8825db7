/* fat-test: runs the command named on the command line (see fat_test.h) on the volume
 * the program was loaded from. */
#include "fat_test.h"

static EFI_GUID loaded_image_guid = EFI_LOADED_IMAGE_PROTOCOL_GUID;
static EFI_GUID sfs_guid = EFI_SIMPLE_FILE_SYSTEM_PROTOCOL_GUID;

static EFI_FILE_PROTOCOL *own_volume(void)
{
	EFI_LOADED_IMAGE_PROTOCOL *image;
	EFI_SIMPLE_FILE_SYSTEM_PROTOCOL *sfs;
	EFI_FILE_PROTOCOL *root = NULL;

	if (!CHECK_STATUS(app_bs->HandleProtocol(app_image, &loaded_image_guid, (void **)&image),
			  EFI_SUCCESS) ||
	    !CHECK_STATUS(app_bs->HandleProtocol(image->DeviceHandle, &sfs_guid, (void **)&sfs),
			  EFI_SUCCESS) ||
	    !CHECK_STATUS(sfs->OpenVolume(sfs, &root), EFI_SUCCESS))
		return NULL;
	CHECK_EQ(root->Revision, EFI_FILE_PROTOCOL_REVISION2);
	return root;
}

/* The first word after the program's name on the command line. */
static void command(char *word, size_t size)
{
	EFI_LOADED_IMAGE_PROTOCOL *image;
	char line[256] = "";
	char *p = line;
	size_t n = 0;

	if (!EFI_ERROR(app_bs->HandleProtocol(app_image, &loaded_image_guid, (void **)&image)) &&
	    image->LoadOptions)
		ucs2_to_utf8(line, sizeof(line), image->LoadOptions,
			     image->LoadOptionsSize / sizeof(CHAR16));
	while (*p && *p != ' ')
		p++;
	while (*p == ' ')
		p++;
	while (p[n] && p[n] != ' ' && n + 1 < size) {
		word[n] = p[n];
		n++;
	}
	word[n] = 0;
}

EFI_STATUS EFIAPI efi_main(EFI_HANDLE image, EFI_SYSTEM_TABLE *st)
{
	EFI_FILE_PROTOCOL *root;
	char word[32];

	app_init(image, st);
	st->BootServices->SetWatchdogTimer(0, 0, 0, NULL);
	command(word, sizeof(word));
	root = own_volume();
	if (root && !str8_cmp(word, "write")) {
		ft_write_scenario(root);
	} else if (root && !str8_cmp(word, "dump")) {
		ft_dump(root);
	} else if (root) {
		app_print("usage: fat-test write | dump\n");
		root->Close(root);
		return EFI_INVALID_PARAMETER;
	}
	if (root)
		root->Close(root);
	check_print_summary("fat-test");
	return check_totals.failed ? EFI_DEVICE_ERROR : EFI_SUCCESS;
}
