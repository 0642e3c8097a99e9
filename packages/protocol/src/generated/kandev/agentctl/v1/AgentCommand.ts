// Original file: proto/kandev/agentctl/v1/agentctl.proto


export interface AgentCommand {
  'command'?: (string);
  'args'?: (string)[];
  'env'?: ({[key: string]: string});
  'cwd'?: (string);
}

export interface AgentCommand__Output {
  'command': (string);
  'args': (string)[];
  'env': ({[key: string]: string});
  'cwd': (string);
}
