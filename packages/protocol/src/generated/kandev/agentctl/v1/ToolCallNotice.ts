// Original file: proto/kandev/agentctl/v1/agentctl.proto

import type { FileDiff as _kandev_agentctl_v1_FileDiff, FileDiff__Output as _kandev_agentctl_v1_FileDiff__Output } from '../../../kandev/agentctl/v1/FileDiff';

export interface ToolCallNotice {
  'prompt_id'?: (string);
  'tool_call_id'?: (string);
  'title'?: (string);
  'status'?: (string);
  'input_json'?: (string);
  'output_text'?: (string);
  'kind'?: (string);
  'diffs'?: (_kandev_agentctl_v1_FileDiff)[];
}

export interface ToolCallNotice__Output {
  'prompt_id': (string);
  'tool_call_id': (string);
  'title': (string);
  'status': (string);
  'input_json': (string);
  'output_text': (string);
  'kind': (string);
  'diffs': (_kandev_agentctl_v1_FileDiff__Output)[];
}
