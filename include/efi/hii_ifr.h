/* The Internal Forms Representation (UEFI 2.10, 33.3.8): opcodes of a forms package, the
 * question value types, and the value union passed to Config Access callbacks. Opcodes are
 * unaligned byte records: Ember reads their fields at the offsets given here. */
#ifndef EFI_HII_IFR_H
#define EFI_HII_IFR_H

#include <efi/types.h>
#include <efi/protocol/hii_package_list.h>

typedef UINT16 EFI_QUESTION_ID;
typedef UINT16 EFI_FORM_ID;
typedef UINT16 EFI_VARSTORE_ID;
typedef UINT16 EFI_DEFAULT_ID;

/* EFI_IFR_OP_HEADER: OpCode, then Length (7 bits) and Scope (the top bit). */
#define EFI_IFR_OP_HEADER_SIZE 2
#define EFI_IFR_LENGTH_MASK 0x7f
#define EFI_IFR_SCOPE 0x80

#define EFI_IFR_FORM_OP 0x01
#define EFI_IFR_SUBTITLE_OP 0x02
#define EFI_IFR_TEXT_OP 0x03
#define EFI_IFR_IMAGE_OP 0x04
#define EFI_IFR_ONE_OF_OP 0x05
#define EFI_IFR_CHECKBOX_OP 0x06
#define EFI_IFR_NUMERIC_OP 0x07
#define EFI_IFR_PASSWORD_OP 0x08
#define EFI_IFR_ONE_OF_OPTION_OP 0x09
#define EFI_IFR_SUPPRESS_IF_OP 0x0a
#define EFI_IFR_LOCKED_OP 0x0b
#define EFI_IFR_ACTION_OP 0x0c
#define EFI_IFR_RESET_BUTTON_OP 0x0d
#define EFI_IFR_FORM_SET_OP 0x0e
#define EFI_IFR_REF_OP 0x0f
#define EFI_IFR_NO_SUBMIT_IF_OP 0x10
#define EFI_IFR_INCONSISTENT_IF_OP 0x11
#define EFI_IFR_EQ_ID_VAL_OP 0x12
#define EFI_IFR_EQ_ID_ID_OP 0x13
#define EFI_IFR_EQ_ID_VAL_LIST_OP 0x14
#define EFI_IFR_AND_OP 0x15
#define EFI_IFR_OR_OP 0x16
#define EFI_IFR_NOT_OP 0x17
#define EFI_IFR_RULE_OP 0x18
#define EFI_IFR_GRAY_OUT_IF_OP 0x19
#define EFI_IFR_DATE_OP 0x1a
#define EFI_IFR_TIME_OP 0x1b
#define EFI_IFR_STRING_OP 0x1c
#define EFI_IFR_REFRESH_OP 0x1d
#define EFI_IFR_DISABLE_IF_OP 0x1e
#define EFI_IFR_ORDERED_LIST_OP 0x23
#define EFI_IFR_VARSTORE_OP 0x24
#define EFI_IFR_VARSTORE_NAME_VALUE_OP 0x25
#define EFI_IFR_VARSTORE_EFI_OP 0x26
#define EFI_IFR_VARSTORE_DEVICE_OP 0x27
#define EFI_IFR_END_OP 0x29
#define EFI_IFR_EQUAL_OP 0x2f
#define EFI_IFR_NOT_EQUAL_OP 0x30
#define EFI_IFR_GREATER_THAN_OP 0x31
#define EFI_IFR_GREATER_EQUAL_OP 0x32
#define EFI_IFR_LESS_THAN_OP 0x33
#define EFI_IFR_LESS_EQUAL_OP 0x34
#define EFI_IFR_BITWISE_AND_OP 0x35
#define EFI_IFR_BITWISE_OR_OP 0x36
#define EFI_IFR_BITWISE_NOT_OP 0x37
#define EFI_IFR_SHIFT_LEFT_OP 0x38
#define EFI_IFR_SHIFT_RIGHT_OP 0x39
#define EFI_IFR_ADD_OP 0x3a
#define EFI_IFR_SUBTRACT_OP 0x3b
#define EFI_IFR_MULTIPLY_OP 0x3c
#define EFI_IFR_DIVIDE_OP 0x3d
#define EFI_IFR_MODULO_OP 0x3e
#define EFI_IFR_RULE_REF_OP 0x3f
#define EFI_IFR_QUESTION_REF1_OP 0x40
#define EFI_IFR_QUESTION_REF2_OP 0x41
#define EFI_IFR_UINT8_OP 0x42
#define EFI_IFR_UINT16_OP 0x43
#define EFI_IFR_UINT32_OP 0x44
#define EFI_IFR_UINT64_OP 0x45
#define EFI_IFR_TRUE_OP 0x46
#define EFI_IFR_FALSE_OP 0x47
#define EFI_IFR_TO_UINT_OP 0x48
#define EFI_IFR_TO_STRING_OP 0x49
#define EFI_IFR_TO_BOOLEAN_OP 0x4a
#define EFI_IFR_MID_OP 0x4b
#define EFI_IFR_FIND_OP 0x4c
#define EFI_IFR_TOKEN_OP 0x4d
#define EFI_IFR_STRING_REF1_OP 0x4e
#define EFI_IFR_STRING_REF2_OP 0x4f
#define EFI_IFR_CONDITIONAL_OP 0x50
#define EFI_IFR_QUESTION_REF3_OP 0x51
#define EFI_IFR_ZERO_OP 0x52
#define EFI_IFR_ONE_OP 0x53
#define EFI_IFR_ONES_OP 0x54
#define EFI_IFR_UNDEFINED_OP 0x55
#define EFI_IFR_LENGTH_OP 0x56
#define EFI_IFR_DUP_OP 0x57
#define EFI_IFR_THIS_OP 0x58
#define EFI_IFR_SPAN_OP 0x59
#define EFI_IFR_VALUE_OP 0x5a
#define EFI_IFR_DEFAULT_OP 0x5b
#define EFI_IFR_DEFAULTSTORE_OP 0x5c
#define EFI_IFR_GUID_OP 0x5f
#define EFI_IFR_SECURITY_OP 0x60
#define EFI_IFR_MODAL_TAG_OP 0x61
#define EFI_IFR_REFRESH_ID_OP 0x62
#define EFI_IFR_WARNING_IF_OP 0x63
#define EFI_IFR_MATCH2_OP 0x64

/* EFI_IFR_STATEMENT_HEADER (Prompt, Help) and EFI_IFR_QUESTION_HEADER (the statement,
 * QuestionId, VarStoreId, VarStoreInfo, Flags), offsets from the opcode's start. */
#define EFI_IFR_PROMPT_OFFSET 2
#define EFI_IFR_HELP_OFFSET 4
#define EFI_IFR_QUESTION_ID_OFFSET 6
#define EFI_IFR_VARSTORE_ID_OFFSET 8
#define EFI_IFR_VARSTORE_INFO_OFFSET 10
#define EFI_IFR_QUESTION_FLAGS_OFFSET 12
#define EFI_IFR_QUESTION_END 13 /* the header, then the opcode's own fields */

/* Question flags. */
#define EFI_IFR_FLAG_READ_ONLY 0x01
#define EFI_IFR_FLAG_CALLBACK 0x04
#define EFI_IFR_FLAG_RESET_REQUIRED 0x10

/* ONE_OF and NUMERIC flags: the storage width and how the value is shown. */
#define EFI_IFR_NUMERIC_SIZE 0x03
#define EFI_IFR_NUMERIC_SIZE_1 0x00
#define EFI_IFR_NUMERIC_SIZE_2 0x01
#define EFI_IFR_NUMERIC_SIZE_4 0x02
#define EFI_IFR_NUMERIC_SIZE_8 0x03
#define EFI_IFR_DISPLAY 0x30
#define EFI_IFR_DISPLAY_INT_DEC 0x00
#define EFI_IFR_DISPLAY_UINT_DEC 0x10
#define EFI_IFR_DISPLAY_UINT_HEX 0x20

/* CHECKBOX flags. */
#define EFI_IFR_CHECKBOX_DEFAULT 0x01
#define EFI_IFR_CHECKBOX_DEFAULT_MFG 0x02

/* ONE_OF_OPTION flags. */
#define EFI_IFR_OPTION_DEFAULT 0x10
#define EFI_IFR_OPTION_DEFAULT_MFG 0x20

/* DATE and TIME flags (33.3.8.3.19, 33.3.8.3.80): fields hidden, and where the value is. */
#define EFI_QF_DATE_YEAR_SUPPRESS 0x01
#define EFI_QF_DATE_MONTH_SUPPRESS 0x02
#define EFI_QF_DATE_DAY_SUPPRESS 0x04
#define EFI_QF_DATE_STORAGE 0x30
#define QF_DATE_STORAGE_NORMAL 0x00
#define QF_DATE_STORAGE_TIME 0x10
#define QF_DATE_STORAGE_WAKEUP 0x20
#define QF_TIME_HOUR_SUPPRESS 0x01
#define QF_TIME_MINUTE_SUPPRESS 0x02
#define QF_TIME_SECOND_SUPPRESS 0x04
#define QF_TIME_STORAGE 0x30
#define QF_TIME_STORAGE_NORMAL 0x00
#define QF_TIME_STORAGE_TIME 0x10
#define QF_TIME_STORAGE_WAKEUP 0x20

/* Value types (ONE_OF_OPTION, DEFAULT, Config Access callbacks). */
#define EFI_IFR_TYPE_NUM_SIZE_8 0x00
#define EFI_IFR_TYPE_NUM_SIZE_16 0x01
#define EFI_IFR_TYPE_NUM_SIZE_32 0x02
#define EFI_IFR_TYPE_NUM_SIZE_64 0x03
#define EFI_IFR_TYPE_BOOLEAN 0x04
#define EFI_IFR_TYPE_TIME 0x05
#define EFI_IFR_TYPE_DATE 0x06
#define EFI_IFR_TYPE_STRING 0x07
#define EFI_IFR_TYPE_OTHER 0x08
#define EFI_IFR_TYPE_UNDEFINED 0x09
#define EFI_IFR_TYPE_ACTION 0x0a
#define EFI_IFR_TYPE_BUFFER 0x0b
#define EFI_IFR_TYPE_REF 0x0c

#define EFI_HII_DEFAULT_CLASS_STANDARD 0x0000

typedef struct {
	UINT8 Hour, Minute, Second;
} EFI_HII_TIME;

typedef struct {
	UINT16 Year;
	UINT8 Month, Day;
} EFI_HII_DATE;

typedef struct {
	EFI_QUESTION_ID QuestionId;
	EFI_FORM_ID FormId;
	EFI_GUID FormSetGuid;
	EFI_STRING_ID DevicePath;
} EFI_HII_REF;

typedef union {
	UINT8 u8;
	UINT16 u16;
	UINT32 u32;
	UINT64 u64;
	BOOLEAN b;
	EFI_HII_TIME time;
	EFI_HII_DATE date;
	EFI_STRING_ID string;
	EFI_HII_REF ref;
} EFI_IFR_TYPE_VALUE;

#endif
