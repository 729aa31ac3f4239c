// The page's own module, importing the package: when it starts running.
import { countUsers } from "user-management-client";

window.started = performance.now();
window.counted = countUsers(location.origin, { active: "true" }).then((r) => r.result.totalUsers);
