// The refusals of calls for papers and peer review: the kit's domain error under the name the
// CfP routes catch (one module so the call, submission and review machines share it).
import { DomainError } from "~/lib/lifecycle.server";

export class CfpError extends DomainError {}
