/**
 * One line of text for a mail header and body ("no line breaks": the branding's `sender_name` and
 * `subject`): none of Unicode's line breaks (LF, VT, FF, CR, NEL, U+2028, U+2029) nor any other control
 * character but the tab. A JSON Schema pattern (the contract's schemas carry it; validation names it).
 */
export const SINGLE_LINE_PATTERN = '^[^\\u0000-\\u0008\\u000a-\\u001f\\u007f-\\u009f\\u2028\\u2029]*$';
