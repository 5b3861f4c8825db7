/* var-loop: writes one non-volatile variable over and over, for power-loss tests. Prints
 * "start N" with the value it finds, then "committed N" after each SetVariable returns, so
 * a test that kills the machine at any moment knows what must have survived: the last
 * committed value, or the one being written when the power went. */
#include "../lib/app.h"

static EFI_GUID loop_guid = {
    0x6a3d0e7c, 0x1f43, 0x4f25, {0x9a, 0x71, 0x2c, 0x4e, 0x8b, 0x05, 0xd3, 0x19}};

#define ATTRIBUTES                                                                                 \
	(EFI_VARIABLE_NON_VOLATILE | EFI_VARIABLE_BOOTSERVICE_ACCESS | EFI_VARIABLE_RUNTIME_ACCESS)

/* The value padded to a record of some size, so the store has to compact now and then. */
struct value {
	UINT64 counter;
	UINT8 padding[200];
};

EFI_STATUS EFIAPI efi_main(EFI_HANDLE image, EFI_SYSTEM_TABLE *st)
{
	struct value v = {0};
	UINTN size = sizeof(v);
	EFI_STATUS status;

	app_init(image, st);
	status = app_rt->GetVariable(u"EmberLoop", &loop_guid, NULL, &size, &v);
	if (status == EFI_NOT_FOUND)
		v.counter = 0;
	else if (EFI_ERROR(status) || size != sizeof(v)) {
		app_print("var-loop: GetVariable: %r (size %llu)\n", status,
			  (unsigned long long)size);
		return status;
	}
	/* What survived must be a whole value: the padding follows from the counter. */
	for (UINTN i = 0; status == EFI_SUCCESS && i < sizeof(v.padding); i++)
		if (v.padding[i] != (UINT8)(v.counter + i)) {
			app_print("corrupt value at byte %llu\n", (unsigned long long)i);
			return EFI_VOLUME_CORRUPTED;
		}
	app_print("start %llu\n", (unsigned long long)v.counter);
	for (;;) {
		v.counter++;
		for (UINTN i = 0; i < sizeof(v.padding); i++)
			v.padding[i] = (UINT8)(v.counter + i);
		status = app_rt->SetVariable(u"EmberLoop", &loop_guid, ATTRIBUTES, sizeof(v), &v);
		if (EFI_ERROR(status)) {
			app_print("var-loop: SetVariable: %r\n", status);
			return status;
		}
		app_print("committed %llu\n", (unsigned long long)v.counter);
	}
}
