// Original file: proto/kandev/agentctl/v1/agentctl.proto


export interface FileDiff {
  'path'?: (string);
  'old_text'?: (string);
  'new_text'?: (string);
  'truncated'?: (boolean);
  'new_file'?: (boolean);
}

export interface FileDiff__Output {
  'path': (string);
  'old_text': (string);
  'new_text': (string);
  'truncated': (boolean);
  'new_file': (boolean);
}
