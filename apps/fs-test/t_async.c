/* fs-test: OpenEx, ReadEx, WriteEx and FlushEx (13.5.7 - 13.5.10), blocking (no event) and
 * with an event, and This pointers that are no file handles. */
#include "fs_test.h"

static UINTN notified;

static VOID EFIAPI count_notify(EFI_EVENT event, VOID *context)
{
	(void)event;
	(*(UINTN *)context)++;
}

static void check_blocking(EFI_FILE_PROTOCOL *root)
{
	EFI_FILE_IO_TOKEN token = {0};
	EFI_FILE_PROTOCOL *f = NULL;
	char buffer[16];

	CHECK_STATUS(root->OpenEx(root, &f, u"FsTest\\Async.txt", CREATE_MODE, 0, NULL),
		     EFI_INVALID_PARAMETER);
	token.Status = EFI_NOT_READY;
	CHECK_STATUS(root->OpenEx(root, &f, u"FsTest\\Async.txt", CREATE_MODE, 0, &token),
		     EFI_SUCCESS);
	CHECK_STATUS(token.Status, EFI_SUCCESS);
	if (!f)
		return;
	token.Buffer = "async data";
	token.BufferSize = 10;
	CHECK_STATUS(f->WriteEx(f, &token), EFI_SUCCESS);
	CHECK_EQ(token.BufferSize, 10);
	CHECK_STATUS(f->FlushEx(f, &token), EFI_SUCCESS);
	CHECK_STATUS(f->SetPosition(f, 0), EFI_SUCCESS);
	token.Buffer = buffer;
	token.BufferSize = sizeof(buffer);
	CHECK_STATUS(f->ReadEx(f, &token), EFI_SUCCESS);
	CHECK(token.BufferSize == 10 && mem_cmp(buffer, "async data", 10) == 0);
	CHECK_STATUS(f->ReadEx(f, NULL), EFI_INVALID_PARAMETER);
	CHECK_STATUS(f->WriteEx(f, NULL), EFI_INVALID_PARAMETER);
	CHECK_STATUS(f->FlushEx(f, NULL), EFI_INVALID_PARAMETER);
	f->Close(f);
	/* Blocking errors come back from the call and in the token. */
	token.Status = EFI_SUCCESS;
	CHECK_STATUS(root->OpenEx(root, &f, u"FsTest\\nothing", READ_ONLY_MODE, 0, &token),
		     EFI_NOT_FOUND);
	CHECK_STATUS(token.Status, EFI_NOT_FOUND);
}

/* With an event: the call queues (EFI_SUCCESS), the outcome is in the token, the event is
 * signalled once the request completes. */
static void check_with_events(EFI_FILE_PROTOCOL *root)
{
	EFI_FILE_IO_TOKEN token = {0};
	EFI_FILE_PROTOCOL *f = NULL;
	EFI_EVENT wait = NULL;
	char buffer[16];

	if (!CHECK_STATUS(fst_bs->CreateEvent(EVT_NOTIFY_SIGNAL, TPL_CALLBACK, count_notify,
					      &notified, &token.Event),
			  EFI_SUCCESS))
		return;
	CHECK_STATUS(root->OpenEx(root, &f, u"FSTEST\\ASYNC.TXT", RW_MODE, 0, &token), EFI_SUCCESS);
	CHECK_STATUS(token.Status, EFI_SUCCESS);
	CHECK_EQ(notified, 1);
	if (f) {
		token.Buffer = "ASYNC";
		token.BufferSize = 5;
		CHECK_STATUS(f->WriteEx(f, &token), EFI_SUCCESS);
		CHECK_STATUS(token.Status, EFI_SUCCESS);
		CHECK_EQ(notified, 2);
		CHECK_STATUS(f->FlushEx(f, &token), EFI_SUCCESS);
		CHECK_EQ(notified, 3);
		f->Close(f);
	}
	fst_bs->CloseEvent(token.Event);
	/* A plain event checked afterwards, and an error reported through the token. */
	if (!CHECK_STATUS(fst_bs->CreateEvent(0, 0, NULL, NULL, &wait), EFI_SUCCESS))
		return;
	token.Event = wait;
	f = OPEN(root, u"FsTest\\Async.txt", READ_ONLY_MODE, 0);
	if (f) {
		token.Buffer = buffer;
		token.BufferSize = sizeof(buffer);
		CHECK_STATUS(f->ReadEx(f, &token), EFI_SUCCESS);
		CHECK_STATUS(fst_bs->CheckEvent(wait), EFI_SUCCESS);
		CHECK(token.BufferSize == 10 && mem_cmp(buffer, "ASYNC data", 10) == 0);
		token.BufferSize = 1;
		CHECK_STATUS(f->WriteEx(f, &token), EFI_SUCCESS);
		CHECK_STATUS(token.Status, EFI_ACCESS_DENIED);
		CHECK_STATUS(fst_bs->CheckEvent(wait), EFI_SUCCESS);
		f->Close(f);
	}
	fst_bs->CloseEvent(wait);
}

void test_async(EFI_FILE_PROTOCOL *root)
{
	check_blocking(root);
	check_with_events(root);
}

/* Pointers that are no handle of this volume are refused, not followed. */
void test_foreign_handles(EFI_FILE_PROTOCOL *root)
{
	UINT8 *memory = fst_alloc(512);
	EFI_FILE_PROTOCOL *fake, *f = NULL;
	UINTN n = 0;
	UINT64 pos;

	if (!memory)
		return;
	mem_set(memory, 0xa5, 512);
	fake = (EFI_FILE_PROTOCOL *)(memory + 256);
	mem_copy(fake, root, sizeof(*fake));
	CHECK_STATUS(fake->Open(fake, &f, u"FsTest", READ_ONLY_MODE, 0), EFI_INVALID_PARAMETER);
	CHECK_STATUS(fake->Read(fake, &n, NULL), EFI_INVALID_PARAMETER);
	CHECK_STATUS(fake->GetPosition(fake, &pos), EFI_INVALID_PARAMETER);
	CHECK_STATUS(fake->GetInfo(fake, &fst_file_info_guid, &n, NULL), EFI_INVALID_PARAMETER);
	CHECK_STATUS(fake->Flush(fake), EFI_INVALID_PARAMETER);
	CHECK_STATUS(fake->Close(fake), EFI_INVALID_PARAMETER);
	CHECK_STATUS(fake->Delete(fake), EFI_INVALID_PARAMETER);
	CHECK_STATUS(root->Close(NULL), EFI_INVALID_PARAMETER);
	CHECK_STATUS(root->SetPosition(NULL, 0), EFI_INVALID_PARAMETER);
	fst_free(memory);
}
