import { Router } from 'express';
import { z } from 'zod';
import { parseInput } from '../../platform/http/parse';
import { IdParamsSchema } from '../../platform/store/id-schema';
import { CreateTaskBodySchema, rejectImmutableTaskFields, toTaskView, UpdateTaskBodySchema } from './task';
import { ListTasksQuerySchema } from './task-list';
import type { TaskService } from './task-service';

/** Unarchive takes no options. */
export const EmptyBodySchema = z.object({}).strict();

export function createTaskRoutes(tasks: TaskService): Router {
  const router = Router();
  router.post('/api/tasks', async (req, res) => {
    const body = parseInput(CreateTaskBodySchema, req.body, 'request body');
    res.status(201).json(toTaskView(await tasks.create(body)));
  });
  router.get('/api/tasks', async (req, res) => {
    const query = parseInput(ListTasksQuerySchema, req.query, 'query');
    const page = await tasks.list(query);
    const items = page.items.map((listed) => ({ ...toTaskView(listed), attention: listed.attention }));
    res.json({ tasks: items, next_cursor: page.nextCursor });
  });
  router.get('/api/tasks/:id', async (req, res) => {
    const { id } = parseInput(IdParamsSchema, req.params, 'path');
    res.json(toTaskView(await tasks.get(id)));
  });
  router.patch('/api/tasks/:id', async (req, res) => {
    const { id } = parseInput(IdParamsSchema, req.params, 'path');
    rejectImmutableTaskFields(req.body);
    const body = parseInput(UpdateTaskBodySchema, req.body, 'request body');
    res.json(toTaskView(await tasks.update(id, body)));
  });
  router.post('/api/tasks/:id/unarchive', async (req, res) => {
    const { id } = parseInput(IdParamsSchema, req.params, 'path');
    parseInput(EmptyBodySchema, req.body ?? {}, 'request body');
    res.json(toTaskView(await tasks.unarchive(id)));
  });
  return router;
}
