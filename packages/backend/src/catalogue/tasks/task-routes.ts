import { Router } from 'express';
import { parseInput } from '../../platform/http/parse';
import { IdParamsSchema } from '../../platform/store/id-schema';
import {
  CreateTaskBodySchema,
  ListTasksQuerySchema,
  rejectImmutableTaskFields,
  toTaskView,
  UpdateTaskBodySchema,
} from './task';
import type { TaskService } from './task-service';

export function createTaskRoutes(tasks: TaskService): Router {
  const router = Router();
  router.post('/api/tasks', async (req, res) => {
    const body = parseInput(CreateTaskBodySchema, req.body, 'request body');
    res.status(201).json(toTaskView(await tasks.create(body)));
  });
  router.get('/api/tasks', async (req, res) => {
    const query = parseInput(ListTasksQuerySchema, req.query, 'query');
    const page = await tasks.list(query);
    res.json({ tasks: page.items.map(toTaskView), next_cursor: page.nextCursor });
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
  return router;
}
