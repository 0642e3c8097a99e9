// Original file: proto/kandev/agentctl/v1/agentctl.proto


export interface ListSessionsRequest {
}

export interface ListSessionsRequest__Output {
}
