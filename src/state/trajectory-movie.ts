/**
 * The Structure page's trajectory for the movie recorder (src/viewer/recorder.ts FrameProvider), frame by frame; the
 * frame shown before the movie is shown again after it.
 */
import type { FrameProvider } from '../viewer/recorder.ts';
import { selectStructure, useSession } from './session.ts';
import { showFrame, useTrajectory } from './trajectory.ts';

/** The open trajectory (a streamed file or a small multi-frame one) as a provider; null when none is open. */
export function trajectoryFrames(): FrameProvider | null {
  const streamed = useTrajectory.getState().info;
  const count = streamed ? streamed.frames : useSession.getState().structures.length;
  if (count < 2) return null;
  const start = streamed ? useTrajectory.getState().frame : useSession.getState().activeStructure;
  return {
    count,
    async show(index) {
      if (useSession.getState().playing) throw new Error('Pause the trajectory before recording it.');
      // No space-group search per frame (as while playing) and no refit: the movie's camera stays.
      const ok = streamed ? await showFrame(index, { symmetry: false }) : await selectStructure(index, false, false);
      if (!ok) {
        const why = (streamed ? useTrajectory.getState().error : null) ?? useSession.getState().error;
        throw new Error(why ?? `Frame ${index + 1} of the trajectory could not be shown.`);
      }
    },
    async finish() {
      await (streamed ? showFrame(start) : selectStructure(start, false));
    },
  };
}
