/* blk-test: finds the disks and runs the steps named on the command line (blk_test.h). */
#include "blk_test.h"

static EFI_GUID block_io_guid = EFI_BLOCK_IO_PROTOCOL_GUID;
static EFI_GUID block_io2_guid = EFI_BLOCK_IO2_PROTOCOL_GUID;

UINTN blk_disks(struct blk_disk *disks, UINTN max)
{
	EFI_HANDLE *handles;
	UINTN count, n = 0;

	if (EFI_ERROR(
		app_bs->LocateHandleBuffer(ByProtocol, &block_io_guid, NULL, &count, &handles)))
		return 0;
	for (UINTN i = 0; i < count && n < max; i++) {
		struct blk_disk *d = &disks[n];

		if (EFI_ERROR(
			app_bs->HandleProtocol(handles[i], &block_io_guid, (void **)&d->bio)) ||
		    d->bio->Media->LogicalPartition)
			continue;
		if (EFI_ERROR(
			app_bs->HandleProtocol(handles[i], &block_io2_guid, (void **)&d->bio2)))
			d->bio2 = NULL;
		d->handle = handles[i];
		d->number = n++;
	}
	app_free(handles);
	return n;
}

void *blk_alloc_aligned(UINTN size, UINT32 io_align, void **to_free)
{
	UINTN align = io_align > 1 ? io_align : 1;
	UINT8 *p = app_alloc(size + align);

	*to_free = p;
	return p ? (void *)ALIGN_UP((uintptr_t)p, (uintptr_t)align) : NULL;
}

static bool word_is(const char *word, size_t len, const char *name)
{
	return len == str8_len(name) && !str8_ncmp(word, name, len);
}

/* Runs one step; false for a word that names none (the program's own name). */
static bool run_step(const char *word, size_t len, struct blk_disk *disks, UINTN count)
{
	if (word_is(word, len, "list"))
		blk_list(disks, count);
	else if (word_is(word, len, "crc"))
		blk_crc(disks, count);
	else if (word_is(word, len, "checks"))
		blk_checks(disks, count);
	else if (word_is(word, len, "write"))
		blk_write(disks, count);
	else if (word_is(word, len, "reconnect"))
		blk_reconnect(disks, count);
	else if (word_is(word, len, "media"))
		blk_media(disks, count);
	else if (word_is(word, len, "exit"))
		blk_exit();
	else
		return false;
	return true;
}

EFI_STATUS efi_main(EFI_HANDLE image, EFI_SYSTEM_TABLE *st)
{
	static struct blk_disk disks[BLK_TEST_MAX_DISKS];
	char line[256];
	bool shutdown = false;
	UINTN count;

	app_init(image, st);
	app_bs->SetWatchdogTimer(0, 0, 0, NULL);
	count = blk_disks(disks, BLK_TEST_MAX_DISKS);
	app_print("blk-test: %u disks\n", (UINT32)count);
	app_command_line(line, sizeof(line));
	for (char *word = line; *word;) {
		char *end = word;

		while (*end && *end != ' ')
			end++;
		if (word_is(word, (size_t)(end - word), "shutdown"))
			shutdown = true;
		else
			run_step(word, (size_t)(end - word), disks, count);
		word = *end ? end + 1 : end;
	}
	check_print_summary("blk-test");
	if (shutdown)
		app_rt->ResetSystem(EfiResetShutdown, EFI_SUCCESS, 0, NULL);
	return check_totals.failed ? EFI_DEVICE_ERROR : EFI_SUCCESS;
}
