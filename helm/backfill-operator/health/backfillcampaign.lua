-- Argo CD health check for BackfillCampaign (resource.customizations.health.backfill.dpone.io_BackfillCampaign).
-- Keys on status.phase first, then on kstatus conditions (Stalled, Ready); works with either condition set the
-- operator writes. Lua 5.1, as Argo CD runs it. Tested by ArgoCdHealthCheckIT with the real lua5.1.
hs = {}

local function condition(status, ctype)
  if status.conditions == nil then
    return nil
  end
  for _, c in ipairs(status.conditions) do
    if c.type == ctype then
      return c
    end
  end
  return nil
end

-- A condition that says only a person can move the campaign on, whatever its type is called.
local function needsPerson(status)
  if status.conditions == nil then
    return nil
  end
  for _, c in ipairs(status.conditions) do
    local negative = c.type == "Stalled" or c.type == "Degraded" or c.type == "Blocked" or c.type == "RolledBack"
    local asserted = (negative and c.status == "True") or (not negative)
    if asserted and (c.reason == "PreflightFailed" or c.reason == "LanePodsStuck") then
      return c
    end
  end
  local stalled = condition(status, "Stalled")
  if stalled ~= nil and stalled.status == "True" then
    return stalled
  end
  local rolledBack = condition(status, "RolledBack")
  if rolledBack ~= nil and rolledBack.status == "True" then
    return rolledBack
  end
  return nil
end

-- The condition that explains a stuck phase: kstatus' Stalled, else the operator's Blocked or Degraded.
local function explaining(status)
  for _, t in ipairs({"Stalled", "Blocked", "Degraded"}) do
    local c = condition(status, t)
    if c ~= nil and c.status == "True" then
      return c
    end
  end
  return needsPerson(status)
end

local function progress(status)
  local p = status.progress
  if p == nil or p.totalChunks == nil or p.totalChunks == 0 then
    return status.phase
  end
  return status.phase .. ": " .. tostring(p.committedChunks or 0) .. "/" .. tostring(p.totalChunks) .. " chunks committed"
end

local function describe(c, fallback)
  if c ~= nil and c.message ~= nil and c.message ~= "" then
    return (c.reason or c.type) .. ": " .. c.message
  end
  if c ~= nil and c.reason ~= nil then
    return c.reason
  end
  return fallback
end

local status = obj.status
local suspend = obj.spec ~= nil and obj.spec.suspend == true
local working = {Planned = true, Prepared = true, Loading = true, Validating = true, Publishing = true, Published = true}
local stuck = {Blocked = true, Recoverable = true, Invalid = true}

if status == nil or status.phase == nil then
  hs.status = "Progressing"
  hs.message = "Waiting for the operator to plan the campaign"
elseif status.observedGeneration ~= nil and obj.metadata.generation ~= nil
    and status.observedGeneration < obj.metadata.generation then
  -- The status describes an older spec: whatever it says is not yet about this one.
  hs.status = "Progressing"
  hs.message = "Waiting for the operator to observe generation " .. tostring(obj.metadata.generation)
elseif stuck[status.phase] then
  hs.status = "Degraded"
  hs.message = describe(explaining(status), status.phase) ..
      (status.recommendedAction and (" | next: " .. status.recommendedAction) or "")
elseif needsPerson(status) ~= nil then
  hs.status = "Degraded"
  hs.message = describe(needsPerson(status), status.phase)
elseif status.phase == "Suspended" or suspend then
  hs.status = "Suspended"
  hs.message = "spec.suspend is true: no new chunk claims"
elseif status.phase == "HandoffCommitted" then
  hs.status = "Healthy"
  hs.message = "Published and handed off"
elseif working[status.phase] then
  hs.status = "Progressing"
  hs.message = progress(status)
else
  hs.status = "Unknown"
  hs.message = "Unknown phase " .. tostring(status.phase)
end
return hs
