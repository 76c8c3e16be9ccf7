-- Argo CD health check of every Ludis kind (ludis.dev: Project, Insight, Workflow, WorkflowRun,
-- Dataset), read from the conditions the Ludis operator writes: Ready, and kstatus's Reconciling
-- and Stalled, in the status of the generation it last observed.
--   Stalled=True      -> Degraded     (the spec cannot be carried out, or the object failed)
--   Reconciling=True  -> Progressing  (the operator works towards the spec)
--   Ready=True        -> Healthy, or Suspended for a paused workflow (reason Paused)
--   anything else, or a generation the operator has not observed yet -> Progressing
-- It uses only Lua's base library, the one Argo CD opens (with package and table) for a check
-- set in argocd-cm.
local hs = {}
local status = obj.status
local generation = obj.metadata.generation
if status == nil or status.observedGeneration == nil or
    (generation ~= nil and status.observedGeneration < generation) then
  hs.status = "Progressing"
  hs.message = "Waiting for the Ludis operator"
  if generation ~= nil then
    hs.message = hs.message .. " to observe generation " .. generation
  end
  return hs
end

local conditions = {}
if status.conditions ~= nil then
  for _, condition in ipairs(status.conditions) do
    conditions[condition.type] = condition
  end
end

local function on(condition)
  return condition ~= nil and condition.status == "True"
end

local function describe(condition)
  if condition.message == nil or condition.message == "" then
    return condition.reason
  end
  return condition.reason .. ": " .. condition.message
end

local stalled, reconciling, ready = conditions["Stalled"], conditions["Reconciling"], conditions["Ready"]
if on(stalled) then
  hs.status = "Degraded"
  hs.message = describe(stalled)
elseif on(reconciling) then
  hs.status = "Progressing"
  hs.message = describe(reconciling)
elseif on(ready) then
  if ready.reason == "Paused" then
    hs.status = "Suspended"
  else
    hs.status = "Healthy"
  end
  hs.message = describe(ready)
else
  hs.status = "Progressing"
  hs.message = "Waiting for the Ludis operator"
end
return hs
